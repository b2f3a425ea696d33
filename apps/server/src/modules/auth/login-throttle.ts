import { isIPv4, isIPv6 } from 'node:net';
import type { SqlRunner } from '../../db/client.ts';

/**
 * Slows password guessing without letting an attacker lock anyone out (ASVS 5.0 V6.3). Failures are
 * counted in a sliding 15-minute window under three keys, and past each key's free failures every
 * further one blocks that key for a doubling time capped at 15 minutes:
 * - the account at one address (`pair`): the guesser at that address, whoever they are;
 * - the account from anywhere (`account`): guessing spread over many addresses;
 * - the address over all accounts (`address`): one address spraying many accounts, known or not.
 * The account and address blocks never stop a user at an address they have signed in from in the
 * last 90 days, so an attack from elsewhere — or from behind the same proxy — leaves them in. Kept in
 * the database so that every API process sees the same counts.
 */
export interface ThrottlePolicy {
  windowSeconds: number;
  freeFailures: number;
  baseBlockSeconds: number;
  maxBlockSeconds: number;
}

export const pairPolicy: ThrottlePolicy = {
  windowSeconds: 900,
  freeFailures: 5,
  baseBlockSeconds: 15,
  maxBlockSeconds: 900,
};
export const accountPolicy: ThrottlePolicy = {
  windowSeconds: 900,
  freeFailures: 20,
  baseBlockSeconds: 60,
  maxBlockSeconds: 900,
};
export const addressPolicy: ThrottlePolicy = {
  windowSeconds: 900,
  freeFailures: 30,
  baseBlockSeconds: 60,
  maxBlockSeconds: 900,
};

/** How long an address a user signed in from stays known-good for that user. */
export const KNOWN_ADDRESS_DAYS = 90;

/** One try at a password: the account as typed (normalised), its user when it exists, and where it came from. */
export interface PasswordAttempt {
  email: string;
  userId: number | undefined;
  address: string;
}

/**
 * The part of a client address an attacker cannot cheaply change: an IPv4 address, or the /64 an
 * IPv6 address belongs to (one subscriber usually holds a whole /64).
 */
export function addressKeyOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

const keysOf = (attempt: PasswordAttempt) => {
  const address = addressKeyOf(attempt.address);
  return {
    address,
    pair: `pair:${attempt.email}|${address}`,
    account: `account:${attempt.email}`,
    spray: `address:${address}`,
  };
};

/** Seconds until `attempt` may try again; 0 when nothing blocks it. */
export async function secondsBlocked(db: SqlRunner, attempt: PasswordAttempt): Promise<number> {
  const keys = keysOf(attempt);
  const rows = await db.query<{ seconds: number | null }>(
    `SELECT ceil(extract(epoch FROM max(blocked_until) - now()))::int AS seconds
     FROM login_throttle
     WHERE blocked_until > now()
       AND (key = $1 OR (key = ANY($2) AND NOT EXISTS (
         SELECT 1 FROM login_addresses
         WHERE user_id = $3 AND address = $4 AND last_success_at > now() - make_interval(days => $5))))`,
    [keys.pair, [keys.account, keys.spray], attempt.userId ?? null, keys.address, KNOWN_ADDRESS_DAYS],
  );
  return rows[0]?.seconds ?? 0;
}

export async function recordFailure(db: SqlRunner, attempt: PasswordAttempt): Promise<void> {
  const keys = keysOf(attempt);
  await countFailure(db, keys.pair, pairPolicy);
  await countFailure(db, keys.account, accountPolicy);
  await countFailure(db, keys.spray, addressPolicy);
}

/**
 * A right password: the guesses at this address are forgotten and the address becomes known-good
 * for the user. The account's count is kept: someone else may still be guessing from elsewhere.
 */
export async function recordSuccess(db: SqlRunner, attempt: PasswordAttempt & { userId: number }) {
  const keys = keysOf(attempt);
  await db.query('DELETE FROM login_throttle WHERE key = $1', [keys.pair]);
  await db.query(
    `INSERT INTO login_addresses (user_id, address) VALUES ($1, $2)
     ON CONFLICT (user_id, address) DO UPDATE SET last_success_at = now()`,
    [attempt.userId, keys.address],
  );
}

/** Deletes counters whose window and block are both over, and addresses no longer known-good. */
export async function purgeExpiredThrottling(db: SqlRunner): Promise<number> {
  const windowSeconds = Math.max(
    pairPolicy.windowSeconds,
    accountPolicy.windowSeconds,
    addressPolicy.windowSeconds,
  );
  const counters = await db.query(
    `DELETE FROM login_throttle
     WHERE window_started_at < now() - make_interval(secs => $1) AND (blocked_until IS NULL OR blocked_until < now())
     RETURNING 1`,
    [windowSeconds],
  );
  const addresses = await db.query(
    'DELETE FROM login_addresses WHERE last_success_at < now() - make_interval(days => $1) RETURNING 1',
    [KNOWN_ADDRESS_DAYS],
  );
  return counters.length + addresses.length;
}

async function countFailure(db: SqlRunner, key: string, policy: ThrottlePolicy): Promise<void> {
  const rows = await db.query<{ failures: number }>(
    `INSERT INTO login_throttle (key, failures, window_started_at) VALUES ($1, 1, now())
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN login_throttle.window_started_at < now() - make_interval(secs => $2)
                       THEN 1 ELSE login_throttle.failures + 1 END,
       window_started_at = CASE WHEN login_throttle.window_started_at < now() - make_interval(secs => $2)
                       THEN now() ELSE login_throttle.window_started_at END
     RETURNING failures`,
    [key, policy.windowSeconds],
  );
  const failures = rows[0]?.failures ?? 0;
  if (failures <= policy.freeFailures) return;
  const doublings = Math.min(failures - policy.freeFailures - 1, 20);
  const block = Math.min(policy.maxBlockSeconds, policy.baseBlockSeconds * 2 ** doublings);
  await db.query(
    'UPDATE login_throttle SET blocked_until = now() + make_interval(secs => $2) WHERE key = $1',
    [key, block],
  );
}
