import type { SqlRunner } from '../db/client.ts';
import { verifyPassword } from '../modules/auth/index.ts';
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

/** Whether `host` is reachable from this machine only. */
export const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

/**
 * Start-up's guard: on a HOST that serves a network, the demo accounts still on their published
 * passwords must choose new ones. Answers the line start-up prints about them, or undefined when
 * there are none (or on loopback).
 */
export async function guardPublishedPasswords(db: SqlRunner, host: string): Promise<string | undefined> {
  if (isLoopback(host)) return undefined;
  const flagged = await requireNewPublishedPasswords(db);
  if (flagged.length === 0) return undefined;
  return `HOST=${host} serves a network: ${flagged.join(', ')} must choose a new password at their next sign-in (docs/security.md, "Serving a network").`;
}
