import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '@cm/contracts/admin.ts';
import { Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import { insertLocation, insertMeter } from '../../test/factories.ts';

// Real public files (see each SOURCE.md), read in place from the shared data folder next to the repo.
const REPO_ROOT = path.resolve(import.meta.dirname, '../../../../..');
const DATA = path.resolve(REPO_ROOT, '../shared/data/real');
const LCL = path.join(DATA, 'lcl-london-halfhourly/lcl_2013_halfhourly_first30meters.csv');
const ESB = path.join(DATA, 'esb-hdf-ireland/HDF_kWh_variant_2022-12_to_2024-10.csv');
const GREEN_BUTTON = path.join(
  DATA,
  'greenbutton-samples/Coastal_Multi_Family_Jan_1_2011_to_Jan_1_2012_RetailCustomer_5.xml',
);

// The independent computation: kWh text → thousandths via a 10^-7 integer, rounding half up,
// without the import's decimal parser. Enough for the files' at most 7 decimals.
const milliOf = (kwh: string) => Math.floor((Math.round(Number(kwh.trim()) * 1e7) + 5000) / 10_000);

/** Expected register at the end of each day: running sum of the file's intervals in time order, last one per day. */
function endOfDayRegisters(rows: Array<{ meter: string; sortKey: string; day: string; milli: number }>) {
  const sorted = [...rows].sort((a, b) =>
    a.meter === b.meter ? a.sortKey.localeCompare(b.sortKey) : a.meter.localeCompare(b.meter),
  );
  const expected = new Map<string, number>();
  const running = new Map<string, number>();
  for (const row of sorted) {
    const total = (running.get(row.meter) ?? 0) + row.milli;
    running.set(row.meter, total);
    expected.set(`${row.meter} ${row.day}`, total);
  }
  return expected;
}

async function storedEndOfDay(t: TestApp, timeZone: string) {
  const rows = await t.db.query<{ meter_number: string; day: string; register: number }>(
    `SELECT m.meter_number, to_char(r.read_at AT TIME ZONE $1, 'YYYY-MM-DD') AS day, max(r.register_milli) AS register
     FROM readings r JOIN meters m ON m.device_id = r.meter_id GROUP BY 1, 2`,
    [timeZone],
  );
  return new Map(rows.map((row) => [`${row.meter_number} ${row.day}`, row.register]));
}

let t: TestApp;
let admin: string;
let location: number;

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  location = await insertLocation(t.db, 'Real data', 'Europe/London');
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
});
afterAll(() => t.close());

async function addMeters(numbers: string[]) {
  for (const [i, meterNumber] of numbers.entries()) {
    const id = await insertMeter(t.db, {
      meterNumber,
      locationId: location,
      meterInd: 100 + i,
      installedAt: new Date('2010-01-01T00:00:00Z'),
    });
    await t.db.query('UPDATE meters SET interval_minutes = 30 WHERE device_id = $1', [id]);
  }
}

/** Streams a file through `transform` (line by line) as the request body: nothing is loaded whole. */
function transformed(file: string, transform: (line: string, index: number) => string | undefined): Readable {
  return Readable.from(
    (async function* () {
      // Created when first read: readline drops lines emitted before anyone iterates.
      const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
      let index = 0;
      for await (const line of lines) {
        const out = transform(line, index++);
        if (out !== undefined) yield `${out}\n`;
      }
    })(),
  );
}

const upload = (body: Readable | string, query: string, contentType: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/imports?${query}`,
    headers: { 'x-api-key': t.apiKey, authorization: `Bearer ${admin}`, 'content-type': contentType },
    payload: body,
  });

describe('real data', () => {
  it(
    'imports Low Carbon London half-hours (5 meters) with the right totals per meter and day',
    { timeout: 180_000 },
    async () => {
      const kept = ['MAC000002', 'MAC000015', 'MAC000016', 'MAC000028', 'MAC000031'];
      await addMeters(kept);
      // Rename the header to the documented columns; the values keep their padding spaces.
      const body = transformed(LCL, (line, i) =>
        i === 0 ? 'meter_number,timestamp,interval_kwh' : kept.includes(line.slice(0, 9)) ? line : undefined,
      );
      const response = await upload(body, 'timeZone=UTC', 'text/csv');
      const report = response.json<ImportReport>();
      expect(report).toMatchObject({
        committed: true,
        rejectedCount: 0,
        conflictCount: 0,
        openingReadings: 5,
      });

      const rows = readFileSync(LCL, 'utf8')
        .split('\n')
        .slice(1)
        .map((line) => line.split(','))
        .filter(([id]) => id !== undefined && kept.includes(id))
        .map(([meter = '', tstp = '', kwh = '']) => ({
          meter,
          sortKey: tstp,
          day: tstp.slice(0, 10),
          milli: milliOf(kwh),
        }));
      expect(report.inserted).toBe(rows.length);
      const expected = endOfDayRegisters(rows);
      const actual = await storedEndOfDay(t, 'UTC');
      expect(expected.size).toBeGreaterThan(1000);
      for (const [key, register] of expected) expect(actual.get(key), key).toBe(register);
      // The published per-meter totals (SOURCE.md): MAC000002 4214.6 kWh, MAC000016 22.0 kWh.
      expect((expected.get('MAC000002 2013-12-31') ?? 0) / 1000).toBeCloseTo(4214.6, 0);
      expect((expected.get('MAC000016 2013-01-16') ?? 0) / 1000).toBeCloseTo(22.0, 0);

      const again = await upload(
        transformed(LCL, (line, i) =>
          i === 0
            ? 'meter_number,timestamp,interval_kwh'
            : kept.includes(line.slice(0, 9))
              ? line
              : undefined,
        ),
        'timeZone=UTC',
        'text/csv',
      );
      expect(again.json<ImportReport>()).toMatchObject({
        inserted: 0,
        unchanged: rows.length,
        openingReadings: 0,
      });
    },
  );

  it(
    'imports the Irish ESB export (newest first, interval ends, Irish local time) and refuses the repeated hour',
    { timeout: 120_000 },
    async () => {
      await addMeters(['ESB-IMPORT', 'ESB-EXPORT']);
      const toRow = (line: string) => {
        const [, , value = '', type = '', end = ''] = line.split(',');
        const meter = type.includes('Import') ? 'ESB-IMPORT' : 'ESB-EXPORT';
        const [date = '', time = ''] = end.trim().split(' ');
        const [dd, mm, yyyy] = date.split('-');
        return { meter, local: `${yyyy}-${mm}-${dd} ${time}`, value };
      };
      const body = transformed(ESB, (line, i) => {
        if (i === 0) return 'meter_number,timestamp,interval_kwh';
        const row = toRow(line);
        return `${row.meter},${row.local},${row.value}`;
      });
      const report = (await upload(body, 'timeZone=Europe/Dublin', 'text/csv')).json<ImportReport>();

      const rows = readFileSync(ESB, 'utf8').split('\r\n').slice(1).filter(Boolean).map(toRow);
      const seen = new Map<string, number>();
      for (const row of rows)
        seen.set(`${row.meter} ${row.local}`, (seen.get(`${row.meter} ${row.local}`) ?? 0) + 1);
      const repeated = rows.filter((row) => (seen.get(`${row.meter} ${row.local}`) ?? 0) > 1);
      expect(repeated.map((row) => row.local).sort()).toEqual([
        '2023-10-29 01:00',
        '2023-10-29 01:00',
        '2023-10-29 01:00',
        '2023-10-29 01:00',
        '2023-10-29 01:30',
        '2023-10-29 01:30',
        '2023-10-29 01:30',
        '2023-10-29 01:30',
      ]);
      expect(report).toMatchObject({
        committed: true,
        rejectedCount: 8,
        conflictCount: 0,
        inserted: rows.length - 8,
      });
      for (const rejected of report.rejected) expect(rejected.reason).toMatch(/ambiguous in Europe\/Dublin/);

      const kept = rows
        .filter((row) => (seen.get(`${row.meter} ${row.local}`) ?? 0) === 1)
        .map((row) => ({
          meter: row.meter,
          sortKey: row.local,
          day: row.local.slice(0, 10),
          milli: milliOf(row.value),
        }));
      const expected = endOfDayRegisters(kept);
      const actual = await storedEndOfDay(t, 'Europe/Dublin');
      for (const [key, register] of expected) expect(actual.get(key), key).toBe(register);
      // SOURCE.md's channel totals (7,174.0 / 4,711.6 kWh) do not match the file's own sums (7,180.8 / 4,713.8),
      // so the check is against the sums computed above.
    },
  );

  it(
    'imports a Green Button sample (hourly Wh deltas) with the right daily totals',
    { timeout: 120_000 },
    async () => {
      await addMeters(['GB-COASTAL']);
      const report = (
        await upload(
          createReadStream(GREEN_BUTTON) as unknown as Readable,
          'meterNumber=GB-COASTAL',
          'application/atom+xml',
        )
      ).json<ImportReport>();
      expect(report).toMatchObject({
        committed: true,
        rowsRead: 8760,
        inserted: 8760,
        rejectedCount: 0,
        openingReadings: 1,
      });
      const xml = readFileSync(GREEN_BUTTON, 'utf8');
      const readings = [
        ...xml.matchAll(
          /<duration>(\d+)<\/duration>\s*<start>(\d+)<\/start>\s*<\/timePeriod>\s*<value>(\d+)<\/value>/g,
        ),
      ].map(([, duration = '0', start = '0', value = '0']) => {
        const end = new Date((Number(start) + Number(duration)) * 1000).toISOString();
        return { meter: 'GB-COASTAL', sortKey: end, day: end.slice(0, 10), milli: Number(value) };
      });
      expect(readings).toHaveLength(8760);
      const expected = endOfDayRegisters(readings);
      const actual = await storedEndOfDay(t, 'UTC');
      for (const [key, register] of expected) expect(actual.get(key), key).toBe(register);
    },
  );
});
