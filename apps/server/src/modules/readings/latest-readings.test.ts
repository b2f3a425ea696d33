import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, SqlRunner } from '../../db/client.ts';
import { createTestDb } from '../../test/test-db.ts';
import { insertIntervals, insertLocation, insertMeter, insertReadings } from '../../test/factories.ts';
import { LatestReadings, NO_READING, type LatestInput } from './latest-readings.ts';
import { findCoverage } from './readings.queries.ts';

const Q = 15 * 60_000;
const DAY = 86_400_000;
let db: Db;
let location: number;
let meters = 0;

beforeAll(async () => {
  db = await createTestDb();
  location = await insertLocation(db, 'Latest test');
});
afterAll(() => db.close());

const newMeter = async () =>
  insertMeter(db, {
    meterNumber: `EM-LATEST-${(meters += 1)}`,
    locationId: location,
    meterInd: meters,
    installedAt: new Date('2025-01-01T00:00:00Z'),
  });

/** The meter as the directory reads it: its version and newest written months. */
async function meterRow(meterId: number): Promise<LatestInput> {
  const [row] = await db.query<LatestInput>(
    `SELECT device_id AS id, readings_version AS "readingsVersion", last_register_month AS "lastRegisterMonth",
       last_interval_month AS "lastIntervalMonth" FROM meters WHERE device_id = $1`,
    [meterId],
  );
  if (!row) throw new Error(`no meter ${meterId}`);
  return row;
}

/** What the latest is by definition: the newest import reading at most a day ahead, searched everywhere. */
async function newestEverywhere(meterId: number) {
  const [register] = await db.query<{ read_at: Date; value_micro: number }>(
    `SELECT read_at, value_micro FROM register_readings WHERE meter_id = $1 AND channel = 1
       AND read_at <= now() + interval '1 day' ORDER BY read_at DESC LIMIT 1`,
    [meterId],
  );
  const [record] = await db.query<{ end_at: Date }>(
    `SELECT end_at FROM interval_readings WHERE meter_id = $1 AND channel = 1
       AND start_at <= now() + interval '1 day' ORDER BY start_at DESC LIMIT 1`,
    [meterId],
  );
  const ends = [register?.read_at, record?.end_at].filter((at): at is Date => at !== undefined);
  return {
    readAt: register?.read_at ?? null,
    valueMicro: register?.value_micro ?? null,
    dataAt: ends.length === 0 ? null : new Date(Math.max(...ends.map((at) => at.getTime()))),
  };
}

/** The latest as a fresh process finds it (nothing remembered). */
async function latestOf(meterId: number) {
  const found = await new LatestReadings(db).of([await meterRow(meterId)]);
  return found.get(meterId);
}

const registers = (from: string, to: string) => {
  const rows: [number, number, number][] = [];
  for (let t = Date.parse(from), v = 1_000; t <= Date.parse(to); t += Q, v += 250) rows.push([t, v, 0]);
  return rows;
};
const months = async (meterId: number) => {
  const row = await meterRow(meterId);
  const month = (at: Date | null) => at?.toISOString().slice(0, 7) ?? null;
  return { registers: month(row.lastRegisterMonth), intervals: month(row.lastIntervalMonth) };
};

describe('a meter’s latest reading', () => {
  it('is found in the newest month written, which writes move forward and no other channel moves', async () => {
    const meter = await newMeter();
    expect(await months(meter)).toEqual({ registers: null, intervals: null });
    expect(await latestOf(meter)).toEqual(NO_READING);
    await insertReadings(db, meter, registers('2026-03-30T00:00:00Z', '2026-04-02T00:00:00Z'));
    await insertReadings(db, meter, registers('2026-01-10T00:00:00Z', '2026-01-11T00:00:00Z'));
    await insertReadings(db, meter, registers('2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z'), 2);
    expect(await months(meter)).toEqual({ registers: '2026-04', intervals: null });
    expect(await latestOf(meter)).toEqual(await newestEverywhere(meter));
    expect((await latestOf(meter))?.readAt?.toISOString()).toBe('2026-04-02T00:00:00.000Z');
  });

  it('is still right when the newest month’s readings are deleted, or lie too far ahead', async () => {
    const meter = await newMeter();
    await insertReadings(db, meter, registers('2026-02-01T00:00:00Z', '2026-03-05T00:00:00Z'));
    await db.query(
      `DELETE FROM register_readings WHERE meter_id = $1 AND read_at >= '2026-03-01T00:00:00Z'`,
      [meter],
    );
    expect(await months(meter)).toEqual({ registers: '2026-03', intervals: null });
    expect((await latestOf(meter))?.readAt?.toISOString()).toBe('2026-02-28T23:45:00.000Z');
    expect(await latestOf(meter)).toEqual(await newestEverywhere(meter));
    // Written straight into the table: the import and ingest paths refuse readings this far ahead.
    const ahead = Date.now() + 40 * DAY;
    await insertReadings(db, meter, [[ahead, 900_000, 0]]);
    expect(await latestOf(meter)).toEqual(await newestEverywhere(meter));
    expect((await latestOf(meter))?.readAt?.toISOString()).toBe('2026-02-28T23:45:00.000Z');
    await db.query('DELETE FROM register_readings WHERE meter_id = $1', [meter]);
    expect(await latestOf(meter)).toEqual(NO_READING);
  });

  it('of a meter written ahead of time is found in the current month, in one query', async () => {
    const meter = await newMeter();
    const now = Date.now();
    const from = new Date(now - 3 * DAY - (now % Q)).toISOString();
    const to = new Date(now + 70 * DAY).toISOString();
    // Written straight into the table: the import and ingest paths refuse readings this far ahead.
    await insertReadings(db, meter, registers(from, to));
    const queries: string[] = [];
    const counting: SqlRunner = {
      query: (text, params, options) => (queries.push(text), db.query(text, params, options)),
      queryArrays: (text, params) => (queries.push(text), db.queryArrays(text, params)),
      copyFrom: (text, source) => db.copyFrom(text, source),
    };
    const found = await new LatestReadings(counting).of([await meterRow(meter)]);
    expect(found.get(meter)).toEqual(await newestEverywhere(meter));
    expect(found.get(meter)?.readAt?.getTime()).toBeLessThanOrEqual(now + DAY + 60_000);
    expect(queries).toHaveLength(1);
  });

  it('of a meter with interval records is their last end, beside its registers', async () => {
    const meter = await newMeter();
    const records: [number, number, number, number][] = [];
    for (let t = Date.parse('2026-05-20T00:00:00Z'); t < Date.parse('2026-06-01T00:30:00Z'); t += 2 * Q)
      records.push([t, t + 2 * Q, 1_500, 0]);
    await insertIntervals(db, meter, records);
    expect(await months(meter)).toEqual({ registers: null, intervals: '2026-06' });
    expect(await latestOf(meter)).toEqual({
      readAt: null,
      valueMicro: null,
      dataAt: new Date('2026-06-01T00:30:00Z'),
    });
    await insertReadings(db, meter, registers('2026-05-01T00:00:00Z', '2026-05-02T00:00:00Z'));
    expect(await latestOf(meter)).toEqual(await newestEverywhere(meter));
  });

  it('comes with what the window before it holds, as findCoverage reads that window', async () => {
    const window = 10 * DAY;
    const regular = await newMeter();
    await insertReadings(db, regular, registers('2026-02-20T00:00:00Z', '2026-03-15T00:00:00Z'));
    const gap = await newMeter();
    await insertReadings(db, gap, registers('2026-03-01T00:00:00Z', '2026-03-06T00:00:00Z'));
    await insertReadings(db, gap, registers('2026-03-08T00:00:00Z', '2026-03-12T06:00:00Z'));
    const records = await newMeter();
    const spans: [number, number, number, number][] = [];
    for (let t = Date.parse('2026-01-25T00:00:00Z'); t < Date.parse('2026-02-03T00:00:00Z'); t += 4 * Q)
      if (t < Date.parse('2026-01-30T00:00:00Z') || t >= Date.parse('2026-01-31T00:00:00Z'))
        spans.push([t, t + 4 * Q, 900, 0]);
    await insertIntervals(db, records, spans);
    await insertReadings(db, records, registers('2026-01-28T00:00:00Z', '2026-01-29T00:00:00Z'));
    const never = await newMeter();
    const meters = [regular, gap, records, never];
    const rows = await Promise.all(meters.map(meterRow));
    // Installed inside the window of `regular`: the window starts there instead.
    const installedAt = new Map([[regular, new Date('2026-03-10T00:00:00Z')]]);
    const inputs = rows.map((row) => ({
      ...row,
      installedAt: installedAt.get(row.id) ?? new Date('2025-01-01T00:00:00Z'),
      intervalMinutes: 15,
    }));
    const found = await new LatestReadings(db).of(inputs, window);
    for (const input of inputs) {
      const latest = found.get(input.id);
      expect(latest).toMatchObject(await newestEverywhere(input.id));
      const last = latest?.dataAt;
      if (!last) {
        expect(latest).toEqual(NO_READING);
        continue;
      }
      const since = new Date(Math.max(input.installedAt.getTime(), last.getTime() - window));
      expect(latest?.window).toEqual(await findCoverage(db, input.id, since, last, Q));
    }
    expect(found.get(gap)?.window?.covered).toBeLessThan(9 * 96);
    expect(found.get(records)?.window?.covered).toBeGreaterThan(0);
  });

  it('leaves the window to Completeness when a record ends past the months it was looked for in', async () => {
    const meter = await newMeter();
    const start = Date.parse('2026-04-30T12:00:00Z');
    await insertIntervals(db, meter, [[start, start + DAY, 24_000, 0]]);
    const row = {
      ...(await meterRow(meter)),
      installedAt: new Date('2025-01-01T00:00:00Z'),
      intervalMinutes: 15,
    };
    const found = (await new LatestReadings(db).of([row], 10 * DAY)).get(meter);
    expect(found?.dataAt?.toISOString()).toBe('2026-05-01T12:00:00.000Z');
    expect(found?.window).toBeUndefined();
  });

  it('of several meters at once, some never written, is each one’s own', async () => {
    const written = [await newMeter(), await newMeter()];
    const never = await newMeter();
    await insertReadings(db, written[0] ?? 0, registers('2025-11-01T00:00:00Z', '2025-11-03T00:00:00Z'));
    await insertReadings(db, written[1] ?? 0, registers('2026-07-01T00:00:00Z', '2026-07-01T12:00:00Z'));
    const rows = await Promise.all([...written, never].map(meterRow));
    const found = await new LatestReadings(db).of(rows);
    for (const meter of written) expect(found.get(meter)).toEqual(await newestEverywhere(meter));
    expect(found.get(never)).toEqual(NO_READING);
  });
});
