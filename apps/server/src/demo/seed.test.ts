import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import { verifyPassword } from '../modules/auth/password.ts';
import { createTestDb } from '../test/test-db.ts';
import type { Db } from '../db/client.ts';
import { DEMO_LOGINS, isDatabaseEmpty, seedDemo, type DemoSummary } from './seed.ts';

// The full demo, 13 months of readings, seeded once for this file.
const NOW = new Date('2026-11-22T02:40:00Z');
const QUARTER_HOUR = 15 * 60_000;
let db: Db;
let summary: DemoSummary;

beforeAll(async () => {
  db = await createTestDb();
  expect(await isDatabaseEmpty(db)).toBe(true);
  summary = await seedDemo(db, { seed: 7, now: NOW });
});
afterAll(() => db?.close());

const one = async <T extends object>(sql: string, params: unknown[] = []): Promise<T> => {
  const rows = await db.query<T>(sql, params);
  if (!rows[0]) throw new Error(`no row: ${sql}`);
  return rows[0];
};
const meterId = async (meterNumber: string) =>
  (await one<{ id: number }>('SELECT device_id AS id FROM meters WHERE meter_number = $1', [meterNumber])).id;
const readingAt = (id: number, iso: string) =>
  db.query<{ register_milli: number; source: number; quality: number }>(
    'SELECT value_micro / 1000 AS register_milli, source, quality FROM register_readings WHERE meter_id = $1 AND read_at = $2',
    [id, iso],
  );

describe('demo seed: content', () => {
  it('is no longer empty, and refuses to seed twice without changing anything', async () => {
    expect(await isDatabaseEmpty(db)).toBe(false);
    const before = await one<{ n: number }>('SELECT count(*)::int AS n FROM register_readings');
    await expect(seedDemo(db, { seed: 7, now: NOW })).rejects.toThrow(/already has users/);
    expect(await one<{ n: number }>('SELECT count(*)::int AS n FROM register_readings')).toEqual(before);
  });

  it('has one admin and two clients who can log in with the printed passwords', async () => {
    const users = await db.query<{ email: string; role_id: number; password_hash: string }>(
      'SELECT email, role_id, password_hash FROM users ORDER BY id',
    );
    expect(users.map((u) => [u.email, u.role_id])).toEqual([
      ['admin@demo.cm', Role.Admin],
      ['client.a@demo.cm', Role.Client],
      ['client.b@demo.cm', Role.Client],
    ]);
    for (const login of DEMO_LOGINS) {
      const user = users.find((u) => u.email === login.email);
      expect(user && (await verifyPassword(user.password_hash, login.password))).toBe(true);
    }
  });

  it('links each client to two locations of its own, and leaves one to the administrator', async () => {
    const links = await db.query<{ email: string; names: string[] }>(
      `SELECT u.email, array_agg(l.public_name ORDER BY l.id) AS names
       FROM user_locations ul JOIN users u ON u.id = ul.user_id JOIN locations l ON l.id = ul.location_id
       GROUP BY u.email ORDER BY u.email`,
    );
    expect(links.map((l) => l.email)).toEqual(['client.a@demo.cm', 'client.b@demo.cm']);
    const [a, b] = links;
    expect(a?.names).toHaveLength(2);
    expect(b?.names).toHaveLength(2);
    expect(a?.names.filter((n) => b?.names.includes(n))).toEqual([]);
    const unlinked = await db.query(
      'SELECT id FROM locations WHERE id NOT IN (SELECT location_id FROM user_locations)',
    );
    expect(unlinked.length).toBeGreaterThanOrEqual(1);
  });

  it('has at least 4 named, addressed locations in at least 2 time zones', async () => {
    const locations = await db.query<{ public_name: string; address: string; time_zone: string }>(
      'SELECT public_name, address, time_zone FROM locations',
    );
    expect(locations.length).toBeGreaterThanOrEqual(4);
    expect(new Set(locations.map((l) => l.time_zone)).size).toBeGreaterThanOrEqual(2);
    for (const l of locations) expect(l.address.length).toBeGreaterThan(10);
  });

  it('builds the AccessPoint → Cube → Meter tree with enough meters, priorities and statuses', async () => {
    const counts = await one<{ aps: number; cubes: number; meters: number; locations: number }>(
      `SELECT count(*) FILTER (WHERE type = 1)::int AS aps, count(*) FILTER (WHERE type = 2)::int AS cubes,
              count(*) FILTER (WHERE type = 3)::int AS meters, (SELECT count(*)::int FROM locations) AS locations
       FROM devices`,
    );
    expect(counts.aps).toBe(counts.locations);
    expect(counts.cubes).toBeGreaterThanOrEqual(2);
    expect(counts.meters).toBeGreaterThanOrEqual(24);
    expect(counts).toMatchObject({ aps: summary.accessPoints, cubes: summary.cubes, meters: summary.meters });
    // Meters hang under Cubes and Cubes under AccessPoints of the same location.
    const badParents = await db.query(
      `SELECT c.id FROM devices c JOIN devices p ON p.id = c.parent_id
       WHERE NOT ((c.type = 3 AND p.type = 2) OR (c.type = 2 AND p.type = 1)) OR c.location_id <> p.location_id
       UNION ALL SELECT id FROM devices WHERE type > 1 AND parent_id IS NULL`,
    );
    expect(badParents).toEqual([]);
    const priorities = await db.query<{ priority: number }>(
      'SELECT DISTINCT priority FROM devices WHERE type = 3 ORDER BY 1',
    );
    expect(priorities.map((p) => p.priority)).toEqual([1, 2, 3, 4]);
    const statuses = await db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM devices WHERE type = 3 GROUP BY status ORDER BY status',
    );
    expect(statuses).toEqual([
      { status: 'active', n: summary.meters - 3 },
      { status: 'faulty', n: 1 },
      { status: 'inactive', n: 1 },
      { status: 'removed', n: 1 },
    ]);
  });

  it('describes each meter: unique number, CT multipliers, register digits, 15-minute interval, installed before the data', async () => {
    const meters = await db.query<{
      meter_number: string;
      multiplier: number;
      register_digits: number;
      interval_minutes: number;
      installed_before_first: boolean;
    }>(
      `SELECT meter_number, multiplier, register_digits, interval_minutes,
              installed_at <= (SELECT min(read_at) FROM register_readings r WHERE r.meter_id = m.device_id) AS installed_before_first
       FROM meters m ORDER BY meter_number`,
    );
    expect(meters).toHaveLength(summary.meters);
    for (const m of meters) {
      expect(m.meter_number).toMatch(/^EM-\d{5}$/);
      expect(m.interval_minutes).toBe(15);
      expect(m.installed_before_first).toBe(true);
    }
    expect(meters.filter((m) => m.multiplier > 1).map((m) => m.multiplier)).toEqual([40, 80]);
    expect(meters.filter((m) => m.register_digits === 5).map((m) => m.meter_number)).toEqual([
      summary.rollover.meterNumber,
    ]);
  });

  it('stores 13 months of 15-minute readings up to now', async () => {
    const totals = await one<{ n: number; first: Date; last: Date; off_grid: number; estimated: number }>(
      `SELECT count(*)::int AS n, min(read_at) AS first, max(read_at) AS last,
              count(*) FILTER (WHERE extract(epoch FROM read_at)::int8 % 900 <> 0)::int AS off_grid,
              count(*) FILTER (WHERE quality = 1)::int AS estimated
       FROM register_readings`,
    );
    expect(totals.n).toBe(summary.readings);
    expect(totals.n).toBeGreaterThan(850_000);
    expect(totals.first.toISOString()).toBe('2025-10-22T02:30:00.000Z');
    expect(totals.last.toISOString()).toBe('2026-11-22T02:30:00.000Z');
    expect(totals.off_grid).toBe(0);
    expect(totals.estimated).toBe(summary.estimatedReadings);
    expect(totals.estimated).toBeGreaterThan(0);
    // A meter without special case has every reading of the period.
    const full = await one<{ n: number }>(
      'SELECT count(*)::int AS n FROM register_readings WHERE meter_id = $1',
      [await meterId('EM-10001')],
    );
    expect(full.n).toBe(
      (NOW.getTime() - (NOW.getTime() % QUARTER_HOUR) - Date.parse('2025-10-22T02:30:00Z')) / QUARTER_HOUR +
        1,
    );
  });

  it('never lets a register go backwards except on the rollover meter, and only once there', async () => {
    const decreases = await db.query<{ meter_number: string; n: number }>(
      `SELECT m.meter_number, count(*)::int AS n
       FROM (SELECT meter_id, (value_micro - lag(value_micro) OVER (PARTITION BY meter_id, channel ORDER BY read_at)) / 1000 AS d FROM register_readings) x
       JOIN meters m ON m.device_id = x.meter_id WHERE d < 0 GROUP BY m.meter_number`,
    );
    expect(decreases).toEqual([{ meter_number: summary.rollover.meterNumber, n: 1 }]);
  });

  it('has readings with the daily shape in local time: evenings above nights at a home', async () => {
    const byHour = await db.query<{ hour: number; wh: number }>(
      `SELECT extract(hour FROM read_at AT TIME ZONE 'Europe/Lisbon')::int AS hour, avg(d)::float8 AS wh
       FROM (SELECT read_at, (value_micro - lag(value_micro) OVER (ORDER BY read_at)) / 1000 AS d FROM register_readings WHERE meter_id = $1) x
       WHERE d IS NOT NULL GROUP BY 1 ORDER BY 1`,
      [await meterId('EM-10001')],
    );
    const at = (h: number) => byHour.find((r) => r.hour === h)?.wh ?? Number.NaN;
    expect(at(20)).toBeGreaterThan(at(3) * 2.5);
    expect(at(7)).toBeGreaterThan(at(3) * 1.5);
  });
  it('has a home with rooftop solar: export on sunny middays, import at night, net metering', async () => {
    const { solar } = summary;
    const id = await meterId(solar.meterNumber);
    expect(
      await one<{ channels: number[] }>('SELECT channels FROM meters WHERE device_id = $1', [id]),
    ).toEqual({
      channels: [1, 2],
    });
    // Energy per channel and local hour over the whole period, from the registers' steps.
    const byHour = await db.query<{ channel: number; hour: number; wh: number }>(
      `SELECT channel, extract(hour FROM read_at AT TIME ZONE 'Europe/Lisbon')::int AS hour, sum(d)::float8 AS wh
       FROM (SELECT channel, read_at,
                    (value_micro - lag(value_micro) OVER (PARTITION BY channel ORDER BY read_at)) / 1000 AS d
             FROM register_readings WHERE meter_id = $1) x
       WHERE d IS NOT NULL GROUP BY 1, 2`,
      [id],
    );
    const wh = (channel: number, hour: number) =>
      byHour.find((r) => r.channel === channel && r.hour === hour)?.wh ?? 0;
    // Nothing exported in the dark; at midday the panels cover the home and export the rest.
    expect(wh(2, 3)).toBe(0);
    expect(wh(2, 14)).toBeGreaterThan(wh(1, 14));
    expect(wh(1, 21)).toBeGreaterThan(wh(1, 14));
    // In the same interval the meter never both imports and exports (net metering).
    const both = await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT read_at FROM (
           SELECT read_at, value_micro - lag(value_micro) OVER (PARTITION BY channel ORDER BY read_at) AS d
           FROM register_readings WHERE meter_id = $1) x
         GROUP BY read_at HAVING count(*) FILTER (WHERE d > 0) = 2) y`,
      [id],
    );
    expect(both.n).toBe(0);
  });
});

describe('demo seed: special cases', () => {
  it('names a DST switch in each zone, and those local days have 23 or 25 hours of readings', async () => {
    const zones = await db.query<{ time_zone: string; meter_number: string }>(
      `SELECT DISTINCT ON (l.time_zone) l.time_zone, m.meter_number FROM locations l JOIN meters m ON m.location_id = l.id
       WHERE m.meter_number = ANY($1) ORDER BY l.time_zone, m.meter_number`,
      [['EM-10001', 'EM-10008', 'EM-10017']],
    );
    expect(zones).toHaveLength(3);
    for (const { time_zone: zone, meter_number: meter } of zones) {
      const changes = summary.dstChanges.filter((c) => c.timeZone === zone);
      expect(changes.map((c) => c.dayHours).sort()).toEqual([23, 25, 25]);
      for (const change of changes) {
        const day = await one<{ n: number }>(
          `SELECT count(*)::int AS n FROM register_readings
           WHERE meter_id = $1 AND (read_at AT TIME ZONE $2)::date = $3::date`,
          [await meterId(meter), zone, change.localDate],
        );
        expect(day.n).toBe(change.dayHours * 4);
      }
    }
    expect(summary.dstChanges.find((c) => c.timeZone === 'Europe/Berlin' && c.dayHours === 23)?.at).toBe(
      '2026-03-29T01:00:00.000Z',
    );
    expect(summary.dstChanges.find((c) => c.timeZone === 'America/New_York' && c.dayHours === 23)?.at).toBe(
      '2026-03-08T07:00:00.000Z',
    );
  });

  it('misses six hours of one meter on a known day; the readings around the gap exist', async () => {
    const { gap } = summary;
    const id = await meterId(gap.meterNumber);
    const missing = await one<{ n: number }>(
      'SELECT count(*)::int AS n FROM register_readings WHERE meter_id = $1 AND read_at BETWEEN $2 AND $3',
      [id, gap.firstMissing, gap.lastMissing],
    );
    expect(missing.n).toBe(0);
    expect(gap.missingReadings).toBe(24);
    expect(Date.parse(gap.firstAfter) - Date.parse(gap.lastBefore)).toBe(25 * QUARTER_HOUR);
    expect(await readingAt(id, gap.lastBefore)).toHaveLength(1);
    expect(await readingAt(id, gap.firstAfter)).toHaveLength(1);
    // The only holes in any meter's series are this one.
    const holes = await db.query<{ meter_id: number; prev: Date }>(
      `SELECT meter_id, prev FROM (SELECT meter_id, read_at, lag(read_at) OVER (PARTITION BY meter_id, channel ORDER BY read_at) AS prev FROM register_readings) x
       WHERE read_at - prev <> interval '15 minutes'`,
    );
    expect(holes).toEqual([{ meter_id: id, prev: new Date(gap.lastBefore) }]);
  });

  it('wraps the five-digit register past 99,999.999 kWh', async () => {
    const { rollover } = summary;
    const id = await meterId(rollover.meterNumber);
    const range = await one<{ first: number; max: number }>(
      `SELECT (array_agg(value_micro ORDER BY read_at))[1] / 1000 AS first, max(value_micro) / 1000 AS max FROM register_readings WHERE meter_id = $1`,
      [id],
    );
    expect(range.first).toBe(rollover.firstRegisterMilli);
    expect(range.first).toBeGreaterThanOrEqual(99_900_000);
    expect(range.max).toBeLessThan(100_000_000);
    expect((await readingAt(id, rollover.lastBeforeWrap.at))[0]?.register_milli).toBe(
      rollover.lastBeforeWrap.registerMilli,
    );
    expect((await readingAt(id, rollover.firstAfterWrap.at))[0]?.register_milli).toBe(
      rollover.firstAfterWrap.registerMilli,
    );
    expect(rollover.lastBeforeWrap.registerMilli).toBeGreaterThan(99_990_000);
    expect(rollover.firstAfterWrap.registerMilli).toBeLessThan(10_000);
  });

  it('exchanges a meter: the old one removed at T with a final reading, the new one installed at T at the same position', async () => {
    const { exchange } = summary;
    const rows = await db.query<{
      meter_number: string;
      location: string;
      meter_ind: number;
      installed_at: Date;
      removed_at: Date | null;
      status: string;
      first: Date;
      last: Date;
    }>(
      `SELECT m.meter_number, l.public_name AS location, m.meter_ind, m.installed_at, m.removed_at, d.status,
              min(r.read_at) AS first, max(r.read_at) AS last
       FROM meters m JOIN devices d ON d.id = m.device_id JOIN locations l ON l.id = m.location_id
       JOIN register_readings r ON r.meter_id = m.device_id
       WHERE m.meter_number = ANY($1)
       GROUP BY m.meter_number, l.public_name, m.meter_ind, m.installed_at, m.removed_at, d.status ORDER BY m.installed_at`,
      [[exchange.oldMeterNumber, exchange.newMeterNumber]],
    );
    const T = new Date(exchange.at);
    const [old, replacement] = rows;
    expect(old).toMatchObject({
      meter_number: exchange.oldMeterNumber,
      removed_at: T,
      status: 'removed',
      last: T,
    });
    expect(replacement).toMatchObject({
      meter_number: exchange.newMeterNumber,
      installed_at: T,
      removed_at: null,
      first: T,
    });
    expect(replacement?.status).toBe('active');
    expect(replacement?.last.toISOString()).toBe(summary.now);
    expect([old?.location, old?.meter_ind]).toEqual([exchange.locationName, exchange.meterInd]);
    expect([replacement?.location, replacement?.meter_ind]).toEqual([
      exchange.locationName,
      exchange.meterInd,
    ]);

    const final = await readingAt(await meterId(exchange.oldMeterNumber), exchange.at);
    const start = await readingAt(await meterId(exchange.newMeterNumber), exchange.at);
    expect(final).toEqual([{ register_milli: exchange.oldFinalRegisterMilli, source: 4, quality: 0 }]);
    expect(start).toEqual([{ register_milli: exchange.newStartRegisterMilli, source: 4, quality: 0 }]);
    expect(exchange.newStartRegisterMilli).toBeLessThan(50_000);
    expect(exchange.newStartRegisterMilli).not.toBe(exchange.oldFinalRegisterMilli);
  });

  it('has a stale Cube whose meters stopped about 30 hours ago, while the others report up to now', async () => {
    const { staleCube } = summary;
    const lasts = await db.query<{ meter_number: string; last: Date; last_seen_at: Date }>(
      `SELECT m.meter_number, max(r.read_at) AS last, d.last_seen_at FROM meters m
       JOIN devices d ON d.id = m.device_id JOIN devices c ON c.id = d.parent_id JOIN register_readings r ON r.meter_id = m.device_id
       WHERE c.serial = $1 GROUP BY m.meter_number, d.last_seen_at ORDER BY 1`,
      [staleCube.serial],
    );
    expect(lasts.map((l) => l.meter_number)).toEqual(staleCube.meterNumbers);
    for (const l of lasts) {
      const hoursLate = (NOW.getTime() - l.last.getTime()) / 3_600_000;
      expect(hoursLate).toBeGreaterThan(24);
      expect(hoursLate).toBeLessThan(48);
      expect(l.last_seen_at.getTime()).toBeGreaterThanOrEqual(l.last.getTime());
    }
    const cube = await one<{ last_seen_at: Date }>('SELECT last_seen_at FROM devices WHERE serial = $1', [
      staleCube.serial,
    ]);
    expect(cube.last_seen_at.toISOString()).toBe(staleCube.lastSeenAt);
  });

  it('reports estimated readings on the faulty meter since it failed', async () => {
    const { faultyMeter } = summary;
    const q = await one<{ estimated: number; measured_after: number }>(
      `SELECT count(*) FILTER (WHERE quality = 1)::int AS estimated,
              count(*) FILTER (WHERE quality = 0 AND read_at >= $2)::int AS measured_after
       FROM register_readings WHERE meter_id = $1`,
      [await meterId(faultyMeter.meterNumber), faultyMeter.estimatedFrom],
    );
    expect(q).toEqual({ estimated: 192, measured_after: 0 });
  });

  it('gives client A bookmarks that point at its own location and meter', async () => {
    const rows = await db.query<{ item_id: string }>(
      `SELECT b.item_id FROM bookmarks b JOIN users u ON u.id = b.user_id WHERE u.email = 'client.a@demo.cm' ORDER BY b.created_at`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const own = await db.query<{ location_id: number }>(
      `SELECT ul.location_id FROM user_locations ul JOIN users u ON u.id = ul.user_id WHERE u.email = 'client.a@demo.cm'`,
    );
    const ownIds = own.map((o) => o.location_id);
    for (const { item_id: item } of rows) {
      const [kind, ref] = item.split(':');
      if (kind === 'location') expect(ownIds).toContain(Number(ref));
      else {
        expect(kind).toBe('meter');
        const m = await one<{ location_id: number }>(
          'SELECT location_id FROM meters WHERE meter_number = $1',
          [ref],
        );
        expect(ownIds).toContain(m.location_id);
      }
    }
  });
});
