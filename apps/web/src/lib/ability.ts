import { createMongoAbility } from '@casl/ability';
import { defaultAbilityRules, type AbilityRule } from '@cm/contracts/abilities.ts';
import type { AbilityAction, AbilitySubject, AppAbility } from './ability-context.ts';

/** Builds the ability from the stored rules; no rules means the default `read Auth` (spec §6). */
export function buildAbility(rules: readonly AbilityRule[] | null | undefined): AppAbility {
  const effective: readonly AbilityRule[] = rules && rules.length > 0 ? rules : defaultAbilityRules;
  return createMongoAbility<[AbilityAction, AbilitySubject]>(
    effective.map((rule) => ({ action: rule.action, subject: rule.subject })),
  );
}

/**
 * Equal rule lists: a refreshed session stores an equal copy of the rules, which must not rebuild
 * the ability (and re-render everything that reads it).
 */
export function sameRules(a: readonly AbilityRule[], b: readonly AbilityRule[]): boolean {
  return (
    a === b ||
    (a.length === b.length &&
      a.every((rule, index) => rule.action === b[index]?.action && rule.subject === b[index]?.subject))
  );
}
