import type { SqlRunner } from '../../db/client.ts';

/**
 * Slows password guessing without letting an attacker lock a user out for good: failures are
 * counted per account and per client address in a sliding 15-minute window; past a threshold each
 * further failure blocks that key for a doubling time capped at 15 minutes, and a success clears
 * the account's counter. Kept in the database so that every API process sees the same counts.
 */
export interface ThrottlePolicy {
  windowSeconds: number;
  freeFailures: number;
  baseBlockSeconds: number;
  maxBlockSeconds: number;
}

export const accountPolicy: ThrottlePolicy = {
  windowSeconds: 900,
  freeFailures: 5,
  baseBlockSeconds: 15,
  maxBlockSeconds: 900,
};
export const addressPolicy: ThrottlePolicy = {
  windowSeconds: 900,
  freeFailures: 30,
  baseBlockSeconds: 60,
  maxBlockSeconds: 900,
};

/** Seconds until every key given may try again; 0 when none is blocked. */
export async function secondsBlocked(db: SqlRunner, keys: string[]): Promise<number> {
  const rows = await db.query<{ seconds: number | null }>(
    `SELECT ceil(extract(epoch FROM max(blocked_until) - now()))::int AS seconds
     FROM login_throttle WHERE key = ANY($1) AND blocked_until > now()`,
    [keys],
  );
  return rows[0]?.seconds ?? 0;
}

export async function recordFailure(db: SqlRunner, key: string, policy: ThrottlePolicy): Promise<void> {
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

export async function clearFailures(db: SqlRunner, key: string): Promise<void> {
  await db.query('DELETE FROM login_throttle WHERE key = $1', [key]);
}
