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
