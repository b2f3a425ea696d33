import type { SqlRunner } from '../db/client.ts';
import { verifyPassword } from '../modules/auth/password.ts';
import { DEMO_LOGINS } from './seed.ts';

/**
 * The demo accounts whose password is still the one the README and start-up publish, each made to
 * choose a new password at its next sign-in (the must-change-password flow). Start-up calls it when
 * HOST serves a network: a published password must not open an account others can reach.
 * Answers the e-mail addresses it flagged.
 */
export async function requireNewPublishedPasswords(db: SqlRunner): Promise<string[]> {
  const users = await db.query<{ id: number; email: string; password_hash: string }>(
    'SELECT id, email, password_hash FROM users WHERE email = ANY($1::text[]) AND NOT must_change_password',
    [DEMO_LOGINS.map((login) => login.email)],
  );
  const flagged: string[] = [];
  for (const user of users) {
    const login = DEMO_LOGINS.find((candidate) => candidate.email === user.email);
    if (login && (await verifyPassword(user.password_hash, login.password))) {
      await db.query('UPDATE users SET must_change_password = true WHERE id = $1', [user.id]);
      flagged.push(user.email);
    }
  }
  return flagged;
}
