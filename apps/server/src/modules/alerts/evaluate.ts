// Evaluates every alert rule against the meters it watches, in a few set-based queries: episodes
// open when a condition begins to hold and clear when it stops (once per episode), and each
// administrator and client of the location is told as they chose, in the app and by e-mail.

import { PRICE_LOOKAHEAD_HOURS, type AlertKind } from '@cm/contracts/alerts.ts';
import type { Bill } from '@cm/contracts/check.ts';
import { billingPeriod } from '@cm/contracts/billing-period.ts';
import { HOUR_MS, localDateOf, startOfLocal } from '@cm/contracts/zoned-time.ts';
import { locationPrices } from '../tariffs/index.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import { findAlertMeters } from '../directory/index.ts';
import { alertRecipients } from '../auth/index.ts';
import { LatestReadings, readings, type DayAsk } from '../readings/index.ts';
import {
  billCondition,
  dailyCondition,
  dayAsks,
  dayEnergy,
  decreaseCondition,
  priceCondition,
  monthStart,
  peakCondition,
  silentCondition,
  type Condition,
  type WatchedMeter,
} from './conditions.ts';
import {
  clearEpisodes,
  findAlertRules,
  findEpisodes,
  findOpenEpisodes,
  findPreferences,
  insertNotifications,
  openEpisodes,
  type AlertRuleRow,
  type NewNotification,
} from './alerts.queries.ts';
import { queueDeliveries } from './webhooks.queries.ts';

/** Items by key (Map.groupBy arrives after Node 20). */
function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** How far back a register decrease keeps its episode open. */
const DECREASE_WINDOW_MS = 48 * 3_600_000;

/** Each current meter's bill of its location's billing period so far (the check module's billsToDate). */
export type BillsOf = (
  location: { id: number; timeZone: string; billingDay: number | null },
  nowMs: number,
) => Promise<Map<number, Bill>>;

export interface EvaluationResult {
  rules: number;
  meters: number;
  fired: number;
  cleared: number;
  /** E-mails queued (sent apart from the evaluation: mail-queue.ts). */
  emailed: number;
}

/** The conditions of every rule for every meter it watches. */
async function conditionsOf(
  db: SqlRunner,
  rules: readonly AlertRuleRow[],
  nowMs: number,
  billsOf: BillsOf | undefined,
) {
  const locationIds = [...new Set(rules.map((rule) => rule.location_id))];
  const found = await findAlertMeters(db, locationIds);
  const latest = await new LatestReadings(db).of(found);
  const watched: WatchedMeter[] = found.map(({ cube, accessPoint, ...meter }) => ({
    ...meter,
    lastDataAt: latest.get(meter.id)?.dataAt ?? null,
    cubeLastSeen: cube?.lastSeenAt ?? null,
    hasCube: cube !== null,
    accessPointLastSeen: accessPoint?.lastSeenAt ?? null,
    hasAccessPoint: accessPoint !== null,
  }));
  const byLocation = groupBy(watched, (meter) => meter.locationId);
  const scoped = rules.map((rule) => ({
    rule,
    meters: (byLocation.get(rule.location_id) ?? []).filter(
      (meter) => rule.meter_id === null || meter.id === rule.meter_id,
    ),
  }));
  const metersOf = (kinds: readonly AlertKind[]) => [
    ...new Map(
      scoped
        .filter((s) => kinds.includes(s.rule.kind))
        .flatMap((s) => s.meters.map((m) => [m.id, m] as const)),
    ).values(),
  ];

  // Daily energies: yesterday and the same weekday of the weeks before, for the daily rules' meters.
  const daily = metersOf(['dailyAbove', 'usualAbove']);
  const asks = new Map<number, DayAsk[]>(daily.map((meter) => [meter.id, dayAsks(meter, nowMs)]));
  const dayRows = daily.length > 0 ? await readings.dayRegisters(db, [...asks.values()].flat()) : [];
  const rowOf = new Map(dayRows.map((row) => [`${row.meterId}:${row.slot}`, row]));
  const energiesOf = (meter: WatchedMeter) =>
    (asks.get(meter.id) ?? []).map((ask) => dayEnergy(meter, ask, rowOf.get(`${meter.id}:${ask.slot}`)));

  const decreasing = metersOf(['registerDecrease']);
  const decreases =
    decreasing.length > 0
      ? await readings.registerDecreases(
          db,
          decreasing.map((meter) => meter.id),
          new Date(nowMs - DECREASE_WINDOW_MS),
        )
      : [];
  const decreaseOf = new Map(decreases.map((found) => [found.meterId, found]));

  // Each meter's latest interval of its month and the month's peak before it, for the peakNear rules.
  const peaking = metersOf(['peakNear']);
  const monthPeaks =
    peaking.length > 0
      ? await readings.monthPeaks(
          db,
          peaking.map((meter) => meter.id),
          peaking.map((meter) => monthStart(meter, nowMs)),
        )
      : [];
  const monthPeakOf = new Map(monthPeaks.map((peak) => [peak.meterId, peak]));

  // Bills to date, per location with a billAbove rule (its meters' bills in one pass).
  const billed = new Map<number, { bills: Map<number, Bill>; period: { from: string; startMs: number } }>();
  if (billsOf)
    for (const { rule, meters } of scoped) {
      const [first] = meters;
      if (rule.kind !== 'billAbove' || !first || billed.has(rule.location_id)) continue;
      const location = { id: rule.location_id, timeZone: first.timeZone, billingDay: first.billingDay };
      const from = billingPeriod(localDateOf(nowMs, first.timeZone), first.billingDay).from;
      const [year = 1970, month = 1, day = 1] = from.split('-').map(Number);
      billed.set(rule.location_id, {
        bills: await billsOf(location, nowMs),
        period: { from, startMs: startOfLocal({ year, month, day }, first.timeZone) },
      });
    }

  // The coming prices per location with a priceAbove rule (the import timeline of its tariffs).
  const coming = new Map<
    number,
    { start: Float64Array; end: Float64Array; price: Float64Array; currency: string }
  >();
  for (const { rule, meters } of scoped) {
    const [first] = meters;
    if (rule.kind !== 'priceAbove' || !first || coming.has(rule.location_id)) continue;
    const prices = await locationPrices(
      db,
      { id: rule.location_id, timeZone: first.timeZone },
      nowMs - HOUR_MS,
      nowMs + PRICE_LOOKAHEAD_HOURS * HOUR_MS,
    );
    const timeline = prices?.timelines.import;
    if (prices && timeline)
      coming.set(rule.location_id, { ...timeline, currency: prices.versions[0]?.currency ?? '' });
  }

  const conditions: Condition[] = [];
  for (const { rule: row, meters } of scoped) {
    const rule = { id: row.id, kind: row.kind, threshold: row.threshold };
    for (const meter of meters) {
      if (rule.kind === 'silent') conditions.push(silentCondition(rule, meter, nowMs));
      else if (rule.kind === 'registerDecrease')
        conditions.push(decreaseCondition(rule, meter, decreaseOf.get(meter.id), nowMs));
      else if (rule.kind === 'priceAbove')
        conditions.push(priceCondition(rule, meter, coming.get(row.location_id), nowMs));
      else if (rule.kind === 'peakNear')
        conditions.push(peakCondition(rule, meter, monthPeakOf.get(meter.id)));
      else if (rule.kind === 'billAbove') {
        const location = billed.get(row.location_id);
        if (location)
          conditions.push(billCondition(rule, meter, location.bills.get(meter.id), location.period));
      } else conditions.push(dailyCondition(rule, meter, asks.get(meter.id) ?? [], energiesOf(meter)));
    }
  }
  return { conditions, watched };
}

/**
 * One evaluation. Two at once (the schedule and an import finishing together) would tell people
 * twice: the second waits for nothing and returns at once. E-mails are only queued here: a mail
 * server that stalls never holds the next evaluation back (security probe 2026-11-27, finding 4).
 */
export async function evaluateAlerts(
  db: Db,
  nowMs: number,
  billsOf?: BillsOf,
  /** A mail server is set up: who chose nothing hears by e-mail too. */
  canEmail = true,
): Promise<EvaluationResult> {
  const rules = await findAlertRules(db);
  if (rules.length === 0) return { rules: 0, meters: 0, fired: 0, cleared: 0, emailed: 0 };
  const { conditions, watched } = await conditionsOf(db, rules, nowMs, billsOf);
  const meterOf = new Map(watched.map((meter) => [meter.id, meter]));
  const ruleOf = new Map(rules.map((rule) => [rule.id, rule]));

  const outcome = await db.transaction(async (tx) => {
    const [{ locked } = { locked: false }] = await tx.query<{ locked: boolean }>(
      "SELECT pg_try_advisory_xact_lock(hashtext('cm_alert_evaluation')) AS locked",
    );
    if (!locked) return null;
    const open = await findOpenEpisodes(tx);
    const holding = new Set(conditions.filter((c) => c.holds).map((c) => `${c.ruleId}:${c.meterId}`));
    const isOpen = new Set(open.map((e) => `${e.rule_id}:${e.meter_id}`));
    const opened = await openEpisodes(
      tx,
      conditions
        .filter((c) => c.holds && !isOpen.has(`${c.ruleId}:${c.meterId}`))
        .map((c) => {
          const meter = meterOf.get(c.meterId);
          return {
            ruleId: c.ruleId,
            meterId: c.meterId,
            startedAt: c.startedAt,
            detail: c.detail,
            meterNumber: meter?.meterNumber ?? '',
            locationName: meter?.locationName ?? '',
            timeZone: meter?.timeZone ?? 'UTC',
          };
        }),
    );
    // An episode ends when its condition no longer holds, or its meter or rule no longer applies.
    const ended = open.filter((e) => !holding.has(`${e.rule_id}:${e.meter_id}`));
    await clearEpisodes(
      tx,
      ended.map((e) => e.id),
      new Date(nowMs),
    );
    const events = [
      ...opened.map((e) => ({ episodeId: e.id, ruleId: e.rule_id, event: 'fired' as const })),
      ...ended.map((e) => ({ episodeId: e.id, ruleId: e.rule_id, event: 'cleared' as const })),
    ];
    const emailed = await notify(tx, events, ruleOf, canEmail);
    await queueWebhooks(tx, events);
    return { fired: opened.length, cleared: ended.length, emailed };
  });
  return {
    rules: rules.length,
    meters: watched.length,
    fired: outcome?.fired ?? 0,
    cleared: outcome?.cleared ?? 0,
    emailed: outcome?.emailed ?? 0,
  };
}

/**
 * Tells each recipient of the events' locations, as each chose for the rule's kind (default: in
 * the app, and by e-mail where a mail server is set up).
 */
async function notify(
  tx: SqlRunner,
  events: readonly { episodeId: number; ruleId: number; event: 'fired' | 'cleared' }[],
  ruleOf: ReadonlyMap<number, AlertRuleRow>,
  canEmail: boolean,
): Promise<number> {
  if (events.length === 0) return 0;
  const locationIds = [...new Set(events.map((e) => ruleOf.get(e.ruleId)?.location_id ?? 0))];
  const recipients = await alertRecipients(tx, locationIds);
  const preferences = await findPreferences(
    tx,
    recipients.map((r) => r.user_id),
  );
  const choice = new Map(preferences.map((p) => [`${p.user_id}:${p.kind}`, p]));
  const byLocation = groupBy(recipients, (r) => r.location_id);
  const notifications: NewNotification[] = [];
  for (const event of events) {
    const rule = ruleOf.get(event.ruleId);
    if (!rule) continue;
    for (const person of byLocation.get(rule.location_id) ?? []) {
      // A customer's own rule tells its owner alone, while they can still see the location.
      if (rule.owner_id !== null && person.user_id !== rule.owner_id) continue;
      const chosen = choice.get(`${person.user_id}:${rule.kind}`);
      const inApp = chosen?.in_app ?? true;
      const email = chosen?.email ?? canEmail;
      if (!inApp && !email) continue;
      notifications.push({
        userId: person.user_id,
        episodeId: event.episodeId,
        event: event.event,
        inApp,
        emailTo: email ? person.email : null,
        emailLanguage: person.language,
      });
    }
  }
  await insertNotifications(tx, notifications);
  return notifications.filter((notification) => notification.emailTo !== null).length;
}

/** Queues each event for every webhook: the episode as it stands, with its rule. */
async function queueWebhooks(
  tx: SqlRunner,
  events: readonly { episodeId: number; event: 'fired' | 'cleared' }[],
): Promise<void> {
  if (events.length === 0) return;
  const episodes = new Map(
    (
      await findEpisodes(
        tx,
        events.map((e) => e.episodeId),
      )
    ).map((e) => [e.id, e]),
  );
  await queueDeliveries(
    tx,
    events.flatMap(({ episodeId, event }) => {
      const episode = episodes.get(episodeId);
      if (!episode) return [];
      return [
        {
          event: event === 'fired' ? ('alert.fired' as const) : ('alert.cleared' as const),
          payload: {
            alert: {
              id: episode.id,
              kind: episode.kind,
              threshold: episode.threshold,
              meterNumber: episode.meter_number,
              locationId: episode.location_id,
              locationName: episode.location_name,
              timeZone: episode.time_zone,
              startedAt: episode.started_at.toISOString(),
              clearedAt: episode.cleared_at?.toISOString() ?? null,
              detail: episode.detail,
            },
          },
        },
      ];
    }),
  );
}
