import type { Language } from '@cm/contracts/languages.ts';
import type { AlertDetail, AlertKind } from '@cm/contracts/alerts.ts';
import type { SqlRunner } from '../../db/client.ts';

export interface AlertRuleRow {
  id: number;
  location_id: number;
  meter_id: number | null;
  kind: AlertKind;
  threshold: number | null;
  created_at: Date;
  open_episodes: number;
  /** A customer's own rule: its owner (only they are told); null: an administrator's rule. */
  owner_id: number | null;
}

/**
 * Alert rules, of one location or all; `owner`: only an administrator's (null) or one person's
 * own rules (a user id); absent: every rule (evaluation).
 */
export function findAlertRules(
  db: SqlRunner,
  locationId?: number,
  owner?: number | null,
): Promise<AlertRuleRow[]> {
  return db.query<AlertRuleRow>(
    `SELECT r.id, r.location_id, r.meter_id, r.kind, r.threshold::float8 AS threshold, r.created_at, r.owner_id,
            (SELECT count(*)::int FROM alert_episodes e WHERE e.rule_id = r.id AND e.cleared_at IS NULL) AS open_episodes
     FROM alert_rules r
     WHERE ($1::int IS NULL OR r.location_id = $1)
       AND (NOT $2::boolean OR r.owner_id IS NOT DISTINCT FROM $3::int)
     ORDER BY r.location_id, r.id`,
    [locationId ?? null, owner !== undefined, owner ?? null],
  );
}

export async function insertAlertRule(
  db: SqlRunner,
  rule: {
    locationId: number;
    meterId: number | null;
    kind: AlertKind;
    threshold: number | null;
    ownerId?: number | null;
  },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    'INSERT INTO alert_rules (location_id, meter_id, kind, threshold, owner_id) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [rule.locationId, rule.meterId, rule.kind, rule.threshold, rule.ownerId ?? null],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into alert_rules returned no id');
  return id;
}

/** Removes a rule of `owner` (null: an administrator's); undefined when it has none with that id. */
export async function deleteAlertRule(
  db: SqlRunner,
  id: number,
  owner: number | null = null,
): Promise<AlertRuleRow | undefined> {
  const [rule] = (await findAlertRules(db, undefined, owner)).filter((row) => row.id === id);
  if (rule) await db.query('DELETE FROM alert_rules WHERE id = $1', [id]);
  return rule;
}

/** A person's own rule's new threshold; false when they own no rule with that id. */
export async function updateOwnAlertRule(
  db: SqlRunner,
  id: number,
  owner: number,
  threshold: number,
): Promise<boolean> {
  const rows = await db.query<{ id: number }>(
    'UPDATE alert_rules SET threshold = $3 WHERE id = $1 AND owner_id = $2 RETURNING id',
    [id, owner, threshold],
  );
  return rows.length > 0;
}

export interface OpenEpisodeRow {
  id: number;
  rule_id: number;
  meter_id: number;
}

export function findOpenEpisodes(db: SqlRunner): Promise<OpenEpisodeRow[]> {
  return db.query<OpenEpisodeRow>(
    'SELECT id, rule_id, meter_id FROM alert_episodes WHERE cleared_at IS NULL',
  );
}

export interface NewEpisode {
  ruleId: number;
  meterId: number;
  startedAt: Date;
  detail: AlertDetail;
  meterNumber: string;
  locationName: string;
  timeZone: string;
}

/** Opens the episodes not open yet (once per episode); returns those opened. */
export function openEpisodes(
  db: SqlRunner,
  episodes: readonly NewEpisode[],
): Promise<{ id: number; rule_id: number; meter_id: number }[]> {
  if (episodes.length === 0) return Promise.resolve([]);
  return db.query(
    `INSERT INTO alert_episodes (rule_id, meter_id, started_at, detail, meter_number, location_name, time_zone)
     SELECT * FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::jsonb[], $5::text[], $6::text[], $7::text[])
     ON CONFLICT (rule_id, meter_id) WHERE cleared_at IS NULL DO NOTHING
     RETURNING id, rule_id, meter_id`,
    [
      episodes.map((e) => e.ruleId),
      episodes.map((e) => e.meterId),
      episodes.map((e) => e.startedAt),
      episodes.map((e) => JSON.stringify(e.detail)),
      episodes.map((e) => e.meterNumber),
      episodes.map((e) => e.locationName),
      episodes.map((e) => e.timeZone),
    ],
  );
}

export async function clearEpisodes(db: SqlRunner, ids: readonly number[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    'UPDATE alert_episodes SET cleared_at = $2 WHERE id = ANY($1::int8[]) AND cleared_at IS NULL',
    [ids, at],
  );
}

/** A person's choice for a kind; no row: in the app, and by e-mail where a mail server is set up. */
export interface PreferenceRow {
  user_id: number;
  kind: AlertKind;
  in_app: boolean;
  email: boolean;
}

export function findPreferences(db: SqlRunner, userIds: readonly number[]): Promise<PreferenceRow[]> {
  return db.query<PreferenceRow>(
    'SELECT user_id, kind, in_app, email FROM alert_preferences WHERE user_id = ANY($1::int[])',
    [userIds],
  );
}

export async function upsertPreferences(
  db: SqlRunner,
  userId: number,
  items: readonly { kind: AlertKind; inApp: boolean; email: boolean }[],
): Promise<void> {
  await db.query(
    `INSERT INTO alert_preferences (user_id, kind, in_app, email)
     SELECT $1, * FROM unnest($2::text[], $3::bool[], $4::bool[])
     ON CONFLICT (user_id, kind) DO UPDATE SET in_app = excluded.in_app, email = excluded.email`,
    [userId, items.map((i) => i.kind), items.map((i) => i.inApp), items.map((i) => i.email)],
  );
}

export interface NewNotification {
  userId: number;
  episodeId: number;
  event: 'fired' | 'cleared';
  inApp: boolean;
  /** The address to e-mail, null when not asked for. */
  emailTo: string | null;
  /** The recipient's language: the e-mail is written in it. */
  emailLanguage: Language;
}

export function insertNotifications(
  db: SqlRunner,
  notifications: readonly NewNotification[],
): Promise<{ id: number }[]> {
  if (notifications.length === 0) return Promise.resolve([]);
  return db.query(
    `INSERT INTO alert_notifications (user_id, episode_id, event, in_app, email_to, email_status, email_language)
     SELECT u, e, ev, ia, et, CASE WHEN et IS NULL THEN NULL ELSE 'pending' END, el
     FROM unnest($1::int[], $2::int8[], $3::text[], $4::bool[], $5::text[], $6::text[]) AS x(u, e, ev, ia, et, el)
     RETURNING id`,
    [
      notifications.map((n) => n.userId),
      notifications.map((n) => n.episodeId),
      notifications.map((n) => n.event),
      notifications.map((n) => n.inApp),
      notifications.map((n) => n.emailTo),
      notifications.map((n) => n.emailLanguage),
    ],
  );
}

/** An episode with its rule's kind and threshold, and the meter and location as they were when it fired. */
export interface EpisodeFields {
  kind: AlertKind;
  threshold: number | null;
  meter_number: string;
  location_name: string;
  time_zone: string;
  started_at: Date;
  cleared_at: Date | null;
  detail: AlertDetail;
}

/** A notification with its episode, as the inbox and e-mails word it. */
export interface NotificationRow extends EpisodeFields {
  id: number;
  user_id: number;
  email_to: string | null;
  email_language: Language;
  email_attempts: number;
  event: 'fired' | 'cleared';
  created_at: Date;
  read_at: Date | null;
  episode_id: number;
}

const notificationColumns = `n.id, n.user_id, n.email_to, n.email_language, n.email_attempts, n.event, n.created_at, n.read_at, e.id AS episode_id,
  r.kind, r.threshold::float8 AS threshold, e.meter_number, e.location_name, e.time_zone,
  e.started_at, e.cleared_at, e.detail
  FROM alert_notifications n
  JOIN alert_episodes e ON e.id = n.episode_id
  JOIN alert_rules r ON r.id = e.rule_id`;

export function findInbox(db: SqlRunner, userId: number, limit: number): Promise<NotificationRow[]> {
  return db.query<NotificationRow>(
    `SELECT ${notificationColumns} WHERE n.user_id = $1 AND n.in_app ORDER BY n.created_at DESC, n.id DESC LIMIT $2`,
    [userId, limit],
  );
}

export async function countUnread(db: SqlRunner, userId: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM alert_notifications WHERE user_id = $1 AND in_app AND read_at IS NULL',
    [userId],
  );
  return rows[0]?.n ?? 0;
}

export async function markRead(db: SqlRunner, userId: number, ids: readonly number[] | null): Promise<void> {
  await db.query(
    `UPDATE alert_notifications SET read_at = now()
     WHERE user_id = $1 AND read_at IS NULL AND ($2::int8[] IS NULL OR id = ANY($2::int8[]))`,
    [userId, ids],
  );
}

/**
 * E-mails due now (pending, their next try come), oldest first, claimed for a minute (their next
 * try moved on) so that two runs or two processes do not send one twice.
 */
export function claimDueEmails(db: SqlRunner, now: Date, limit: number): Promise<NotificationRow[]> {
  return db.query(
    `WITH due AS (
       SELECT id FROM alert_notifications
       WHERE email_status = 'pending' AND (email_next_at IS NULL OR email_next_at <= $1)
       ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED),
     claimed AS (
       UPDATE alert_notifications c SET email_next_at = $1::timestamptz + interval '1 minute'
       FROM due WHERE c.id = due.id RETURNING c.id)
     SELECT ${notificationColumns.replace('FROM alert_notifications n', 'FROM claimed JOIN alert_notifications n ON n.id = claimed.id')}
     ORDER BY n.id`,
    [now, limit],
  );
}

/**
 * E-mails and webhook deliveries still pending although they were due before `before`: what their
 * senders have not caught up with (a retry waiting for its time is not counted).
 */
export async function countOverdue(
  db: SqlRunner,
  before: Date,
): Promise<{ emails: number; webhooks: number }> {
  const rows = await db.query<{ emails: number; webhooks: number }>(
    `SELECT
       (SELECT count(*)::int FROM alert_notifications
        WHERE email_status = 'pending' AND COALESCE(email_next_at, created_at) < $1) AS emails,
       (SELECT count(*)::int FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at < $1) AS webhooks`,
    [before],
  );
  return rows[0] ?? { emails: 0, webhooks: 0 };
}

/** One try's outcome: sent, failed for good, or pending until `nextAt`; `error` says why it failed. */
export async function recordEmailAttempt(
  db: SqlRunner,
  id: number,
  outcome: { status: 'sent' | 'pending' | 'failed'; error: string | null; nextAt: Date | null },
): Promise<void> {
  const error = outcome.error?.slice(0, 500) ?? null;
  await db.query(
    `UPDATE alert_notifications
     SET email_attempts = email_attempts + 1, email_next_at = $3, email_last_error = $4,
         email_status = CASE WHEN $2 = 'failed' THEN 'failed: ' || $4 ELSE $2 END
     WHERE id = $1`,
    [id, outcome.status, outcome.nextAt, error],
  );
}

/** Episodes with their rule, as webhooks carry them. */
export function findEpisodes(
  db: SqlRunner,
  ids: readonly number[],
): Promise<(EpisodeFields & { id: number; location_id: number })[]> {
  return db.query(
    `SELECT e.id, r.kind, r.threshold::float8 AS threshold, r.location_id, e.meter_number, e.location_name,
            e.time_zone, e.started_at, e.cleared_at, e.detail
     FROM alert_episodes e JOIN alert_rules r ON r.id = e.rule_id WHERE e.id = ANY($1::int8[])`,
    [ids],
  );
}

/** The e-mail queue as an administrator sees it: waiting, given up on, the latest refusal. */
export async function emailQueueState(
  db: SqlRunner,
): Promise<{ pending: number; failed: number; lastError: string | null }> {
  const [row] = await db.query<{ pending: number; failed: number; last_error: string | null }>(
    `SELECT count(*) FILTER (WHERE email_status = 'pending')::int AS pending,
            count(*) FILTER (WHERE email_status = 'failed')::int AS failed,
            (SELECT email_last_error FROM alert_notifications
             WHERE email_status IN ('pending', 'failed') AND email_last_error IS NOT NULL
             ORDER BY id DESC LIMIT 1) AS last_error
     FROM alert_notifications WHERE email_status IN ('pending', 'failed')`,
  );
  return { pending: row?.pending ?? 0, failed: row?.failed ?? 0, lastError: row?.last_error ?? null };
}
