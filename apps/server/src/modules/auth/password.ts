import { hash, verify } from '@node-rs/argon2';
import { PASSWORD_WEAKNESS_TEXT, passwordWeakness } from '@cm/contracts/password-policy.ts';
import { badRequest } from '../../http-error.ts';

// argon2id with OWASP's minimum: 19 MiB of memory, 2 passes, 1 lane.
// `Algorithm` is a const enum that isolatedModules cannot inline: 2 is Argon2id.
const ARGON2ID = 2;
const options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password with argon2id (PHC string with its own salt and parameters). */
export function hashPassword(plain: string): Promise<string> {
  return hash(plain, options);
}

/** True when `plain` matches the stored argon2 hash; false for a malformed hash rather than throwing. */
export async function verifyPassword(stored: string, plain: string): Promise<boolean> {
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real check, so an unknown email cannot be told from a wrong password by timing. */
export async function verifyAgainstDummy(plain: string): Promise<void> {
  dummyHash ??= hashPassword('cm-dummy-password-for-timing');
  await verifyPassword(await dummyHash, plain);
}

/** 400 naming `param` when `password` is too easy to guess for `person` (password-policy.ts). */
export function refuseWeakPassword(
  param: string,
  password: string,
  person: { email?: string | undefined; fullName?: string | undefined },
): void {
  const weakness = passwordWeakness(password, person);
  if (weakness)
    throw badRequest(`${param} is too easy to guess: ${PASSWORD_WEAKNESS_TEXT[weakness]}.`, param);
}
