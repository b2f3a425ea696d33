import { z } from 'zod';
import { abilityActions, abilitySubjects, type AbilityRule } from './abilities.ts';
import { roleIds } from './enums.ts';
import { languages } from './languages.ts';

/** A language parameter, named in its error message. */
export const languageSchema = z.enum(languages, {
  message: `language must be one of ${languages.join(', ')}.`,
});

/** `PUT /api/auth/language` body. */
export const languageBodySchema = z.object({ language: languageSchema });

/** One permission rule as stored in `userData.ability` (spec §3, §6). */
const abilityRuleSchema: z.ZodType<AbilityRule> = z.object({
  action: z.enum(abilityActions),
  subject: z.enum(abilitySubjects),
});

/** `POST /api/auth/login` body. */
export const loginBodySchema = z.object({
  email: z.string().trim().min(1, 'Enter your email address.').max(254).email('Enter a valid email address.'),
  password: z.string().min(1, 'Enter your password.').max(1024),
});
/** Login credentials. */
export type LoginBody = z.infer<typeof loginBodySchema>;

/** The user as the browser sees it. */
export const publicUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  fullName: z.string(),
  role: z.union(roleIds.map((id) => z.literal(id))),
  mustChangePassword: z.boolean(),
});
/** A user as the browser sees it. */
export type PublicUser = z.infer<typeof publicUserSchema>;

/**
 * The stored user record (spec §3, kept in local storage as `userData`): the user, the
 * login flag, a token, the role, the token expiry (epoch ms) and the ability rules.
 */
export const userRecordSchema = z.object({
  user: publicUserSchema,
  isLoggedIn: z.literal(true),
  token: z.string(),
  role: z.union(roleIds.map((id) => z.literal(id))),
  tokenExpiresAt: z.number().int(),
  ability: z.array(abilityRuleSchema),
});
/** The login answer and stored user record. */
export type UserRecord = z.infer<typeof userRecordSchema>;

/** `GET /api/auth/me` answer (spec §4: the current user is read from `result.currentUser`). */
export const currentUserResultSchema = z.object({
  currentUser: publicUserSchema.extend({ ability: z.array(abilityRuleSchema) }),
});
/** The load-current-user answer. */
export type CurrentUserResult = z.infer<typeof currentUserResultSchema>;

/** `POST /api/auth/refresh` answer: a new token and its expiry. */
export const refreshResultSchema = z.object({ token: z.string(), tokenExpiresAt: z.number().int() });
/** A renewed token. */
export type RefreshResult = z.infer<typeof refreshResultSchema>;
