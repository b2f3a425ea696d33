import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

/**
 * What a new password must be (ASVS 5.0 V6.2): MIN_PASSWORD_LENGTH to MAX_PASSWORD_LENGTH characters
 * (admin.ts, checked by the body schemas), and hard to guess — not one of the ~50,000 most common passwords or a variant of one, not built from the
 * user's own e-mail or name or the product's name, not a repeat, sequence or keyboard row. Guessing
 * is estimated with zxcvbn-ts and its common dictionary; no composition rules (no "one digit").
 * One module for the server, which enforces it, and the web app, which shows it as the user types
 * (it loads this module only on the pages that set a password: the dictionary is large, so the
 * length constants live in admin.ts).
 */

/** zxcvbn's score 3: about 10^8 guesses or more, "safely unguessable" for an online attacker. */
const MIN_SCORE = 3;

export const passwordWeaknesses = [
  'common',
  'personal',
  'repeated',
  'sequence',
  'keyboard',
  'dates',
  'guessable',
] as const;
/** Why a password is too easy to guess. */
export type PasswordWeakness = (typeof passwordWeaknesses)[number];

/** The English sentence for each weakness (the server's message; the web app translates the code). */
export const PASSWORD_WEAKNESS_TEXT: Record<PasswordWeakness, string> = {
  common: 'it is one of the most common passwords, or close to one',
  personal: "it is built from the user's own e-mail or name, or the product's name",
  repeated: 'it repeats the same characters',
  sequence: 'it is a sequence such as abcdef or 123456',
  keyboard: 'it is a row or pattern of keys on the keyboard',
  dates: 'it is built around a date or a year',
  guessable: 'it is too easy to guess; add a few uncommon words',
};

// zxcvbn's warning keys, by the weakness they mean.
const WEAKNESS_OF_WARNING: Record<string, PasswordWeakness> = {
  topTen: 'common',
  topHundred: 'common',
  common: 'common',
  similarToCommon: 'common',
  wordByItself: 'common',
  namesByThemselves: 'common',
  commonNames: 'common',
  pwned: 'common',
  userInputs: 'personal',
  simpleRepeat: 'repeated',
  extendedRepeat: 'repeated',
  sequences: 'sequence',
  straightRow: 'keyboard',
  keyPattern: 'keyboard',
  dates: 'dates',
  recentYears: 'dates',
};

const PRODUCT_WORDS = ['check meter', 'checkmeter', 'check', 'meter', 'readings'];

let estimator: ZxcvbnFactory | undefined;

/** Words a password must not be built from: the person's e-mail, its parts, their name, the product. */
export function personalWords(person: {
  email?: string | undefined;
  fullName?: string | undefined;
}): string[] {
  const email = (person.email ?? '').trim().toLowerCase();
  const [local = '', domain = ''] = email.split('@');
  const name = (person.fullName ?? '').trim().toLowerCase();
  return [
    email,
    local,
    local.replace(/[^a-z0-9]+/g, ''),
    ...local.split(/[^a-z0-9]+/),
    ...domain.split('.').slice(0, -1),
    name.replace(/\s+/g, ''),
    ...name.split(/\s+/),
    ...PRODUCT_WORDS,
  ].filter((word) => word.length >= 3);
}

/** Why `password` is too weak for `person`, or undefined when it will do. Length is the schema's job. */
export function passwordWeakness(
  password: string,
  person: { email?: string | undefined; fullName?: string | undefined },
): PasswordWeakness | undefined {
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  const result = estimator.check(password, personalWords(person));
  if (result.score >= MIN_SCORE) return undefined;
  return WEAKNESS_OF_WARNING[result.feedback.warning ?? ''] ?? 'guessable';
}
