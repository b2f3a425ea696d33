import { createMongoAbility, type MongoAbility } from '@casl/ability';
import { Role, type RoleId } from './enums.ts';

/** Actions a CASL rule can grant. */
export const abilityActions = ['manage', 'read', 'create', 'update', 'delete'] as const;
/** Subjects a CASL rule can name; `all` matches every subject. */
export const abilitySubjects = [
  'all',
  'Auth',
  'Check',
  'Meter',
  'Location',
  'Bookmark',
  'User',
  'Device',
  'ApiKey',
  'Import',
  'Export',
  'Audit',
] as const;

/**
 * One permission rule as stored in `userData.ability` (spec §3, §6); its schema is in auth.ts, so
 * that the browser's signed-in layout reads the default rules without building Zod schemas.
 */
export interface AbilityRule {
  action: AbilityAction;
  subject: AbilitySubject;
}

/** When no rules are stored the user may only read Auth (spec §6). */
export const defaultAbilityRules: AbilityRule[] = [{ action: 'read', subject: 'Auth' }];

/**
 * The rules each role gets. Admins manage everything; clients read what the check page
 * needs and manage their own bookmarks. The server enforces the same rules (and the
 * client's location scope) — the browser only uses them to hide what would be refused.
 */
export function abilityRulesForRole(role: RoleId): AbilityRule[] {
  if (role === Role.Admin) return [{ action: 'manage', subject: 'all' }];
  return [
    { action: 'read', subject: 'Auth' },
    { action: 'read', subject: 'Check' },
    { action: 'read', subject: 'Meter' },
    { action: 'read', subject: 'Location' },
    { action: 'manage', subject: 'Bookmark' },
  ];
}

/** An action a rule can grant. */
export type AbilityAction = (typeof abilityActions)[number];
/** A subject a rule can name. */
export type AbilitySubject = (typeof abilitySubjects)[number];
/** The CASL ability both sides check: the browser to hide what would be refused, the server to refuse it. */
export type AppAbility = MongoAbility<[AbilityAction, AbilitySubject]>;

/** Builds the ability from rules; no rules means the default `read Auth` (spec §6). */
export function buildAbility(rules: readonly AbilityRule[] | null | undefined): AppAbility {
  const effective = rules && rules.length > 0 ? rules : defaultAbilityRules;
  return createMongoAbility<[AbilityAction, AbilitySubject]>(
    effective.map((rule) => ({ action: rule.action, subject: rule.subject })),
  );
}
