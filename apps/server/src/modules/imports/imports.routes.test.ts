import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportReport } from '@cm/contracts/admin.ts';
import { Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import { insertLocation, insertMeter, insertReadings } from '../../test/factories.ts';

let t: TestApp;
let admin: string;
let meterA: number;
let meterB: number;

const importFile = (body: string, query: string, contentType = 'text/csv') =>
  t.call('POST', `/api/admin/imports?${query}`, {
    token: admin,
    body,
    headers: { 'content-type': contentType },
  });

/** Stored register readings (import channel), in thousandths of a kWh. */
const stored = (meterId: number) =>
  t.db.query<{ at: string; milli: number; source: number }>(
    `SELECT to_char(read_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS at, value_micro / 1000.0 AS milli, source
     FROM register_readings WHERE meter_id = $1 ORDER BY read_at`,
    [meterId],
  );

/** Stored interval readings, energies in millionths of a kWh. */
const storedIntervals = (meterId: number) =>
  t.db.query<{ from: string; to: string; micro: number; channel: number }>(
    `SELECT to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS from,
            to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS to, energy_micro AS micro, channel
     FROM interval_readings WHERE meter_id = $1 ORDER BY channel, start_at`,
    [meterId],
  );

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  const dublin = await insertLocation(t.db, 'Dublin Flats', 'Europe/Dublin');
  const installedAt = new Date('2020-01-01T00:00:00Z');
  meterA = await insertMeter(t.db, {
    meterNumber: 'IMP-A',
    locationId: dublin,
    meterInd: 1,
    installedAt,
    registerDigits: 5,
  });
  meterB = await insertMeter(t.db, { meterNumber: 'IMP-B', locationId: dublin, meterInd: 2, installedAt });
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.query('DELETE FROM register_readings');
  await t.db.query('DELETE FROM interval_readings');
});

describe('CSV import', () => {
  it('refuses an interval overlapping the one before it in the file', async () => {
    // Each row is the meter's 15 minutes ending at its timestamp: 00:20 overlaps 00:00–00:15.
    const overlapping = [
      'meter_number,timestamp,interval_kwh',
      'IMP-B,2024-03-01T00:15:00Z,0.100', // 2
      'IMP-B,2024-03-01T00:20:00Z,0.200', // 3 overlaps line 2
      'IMP-B,2024-03-01T00:45:00Z,0.300', // 4
    ].join('\n');
    const report = (await importFile(overlapping, 'format=csv')).json<ImportReport>();
    expect(report).toMatchObject({ committed: true, inserted: 2, rejectedCount: 1 });
    expect(report.rejected.map((r) => [r.line, r.code, r.params])).toEqual([
      [3, 'overlapsLine', { line: 2 }],
    ]);
  });

  it('refuses a register going down in a file whose rows run in time order, and stores the rest', async () => {
    const ordered = [
      'meter_number,timestamp,register_kwh',
      'IMP-B,2024-02-01T00:00:00Z,200.000', // 2
      'IMP-B,2024-02-01T00:15:00Z,200.250', // 3
      'IMP-B,2024-02-01T00:30:00Z,200.100', // 4 below line 3
      'IMP-B,2024-02-01T00:45:00Z,200.500', // 5
    ].join('\n');
    const report = (await importFile(ordered, 'format=csv')).json<ImportReport>();
    expect(report).toMatchObject({ committed: true, inserted: 3, rejectedCount: 1 });
    expect(report.rejected.map((r) => [r.line, r.code])).toEqual([[4, 'belowPrevious']]);
    expect((await stored(meterB)).map((row) => row.milli)).toEqual([200_000, 200_250, 200_500]);
  });

  const messy = [
    'meter_number,timestamp,register_kwh,time_zone',
    'IMP-A,2024-01-01T00:00:00Z,100.000,', // 2 ok
    'IMP-A,2024-01-01 00:15,100.250,Europe/Dublin', // 3 ok (local winter time = UTC)
    'NOPE-1,2024-01-01T00:30:00Z,1,', // 4 unknown meter
    'IMP-A,2024-01-01T00:30:00Z,12x,', // 5 not a number
    'IMP-A,2024-01-32T00:45:00Z,101,', // 6 not a date
    'IMP-A,2024-03-31 01:30,101,Europe/Dublin', // 7 does not exist
    'IMP-A,2023-10-29 01:30,90,Europe/Dublin', // 8 ambiguous
    'IMP-A,2024-01-01T00:15:00Z,100.250,', // 9 duplicate of line 3
    'IMP-A,2024-01-01T01:00:00Z,-5,', // 10 negative
    'IMP-A,2024-01-01T01:15:00Z,99.000,', // 11 decrease, not a rollover
    'IMP-A,2024-01-01T01:30:00Z,100.500,', // 12 ok
    'IMP-A,2024-01-01T01:45:00Z,99999.999,', // 13 ok (big jump up)
    'IMP-A,2024-01-01T02:00:00Z,0.100,', // 14 rollover past 99999.999: ok
    'IMP-A,2024-01-01T02:15:00Z,1,2,3', // 15 wrong field count
    'IMP-B,2024-01-01T00:00:00+01:00,7.5,', // 16 ok
  ].join('\n');

  it('stores every valid row and reports each rejected line with its reason', async () => {
    const response = await importFile(messy, 'format=csv');
    expect(response.statusCode).toBe(200);
    const report = response.json<ImportReport>();
    expect(report).toMatchObject({
      committed: true,
      rowsRead: 15,
      inserted: 6,
      unchanged: 0,
      conflictCount: 0,
      rejectedCount: 9,
    });
    expect(report.rejected.map((r) => r.line)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 15]);
    const reasons = Object.fromEntries(report.rejected.map((r) => [r.line, r.reason]));
    expect(reasons[4]).toMatch(/unknown meter number "NOPE-1"/);
    expect(reasons[5]).toMatch(/register_kwh "12x" is not a number/);
    expect(reasons[6]).toMatch(/not a real date/);
    expect(reasons[7]).toMatch(/does not exist in Europe\/Dublin/);
    expect(reasons[8]).toMatch(/ambiguous in Europe\/Dublin/);
    expect(reasons[9]).toMatch(/duplicate of line 3/);
    expect(reasons[10]).toMatch(/must not be negative/);
    expect(reasons[11]).toMatch(/below the previous register 100\.25/);
    expect(reasons[15]).toMatch(/expected 4 fields, found 5/);
    // Each reason also comes as a code with its values, which the web app words (17.15), from
    // the parsers and from the checks run in SQL alike.
    const codes = Object.fromEntries(report.rejected.map((r) => [r.line, [r.code, r.params]]));
    expect(codes[4]).toEqual(['unknownMeter', { meterNumber: 'NOPE-1' }]);
    expect(codes[7]).toEqual(['skippedTime', { time: expect.any(String), zone: 'Europe/Dublin' }]);
    expect(codes[9]).toEqual(['duplicateLine', { line: 3 }]);
    expect(codes[11]).toEqual(['belowPrevious', { value: expect.any(Number), previous: 100.25 }]);
    expect(await stored(meterA)).toEqual([
      { at: '2024-01-01T00:00', milli: 100_000, source: 1 },
      { at: '2024-01-01T00:15', milli: 100_250, source: 1 },
      { at: '2024-01-01T01:30', milli: 100_500, source: 1 },
      { at: '2024-01-01T01:45', milli: 99_999_999, source: 1 },
      { at: '2024-01-01T02:00', milli: 100, source: 1 },
    ]);
    expect(await stored(meterB)).toEqual([{ at: '2023-12-31T23:00', milli: 7_500, source: 1 }]);
    const audit = await t.db.query<{ detail: { inserted: number } }>(
      `SELECT detail FROM audit_log WHERE action = 'readings.import'`,
    );
    expect(audit.at(-1)?.detail.inserted).toBe(6);

    // Idempotent: the same file again changes nothing.
    const again = (await importFile(messy, 'format=csv')).json<ImportReport>();
    expect(again).toMatchObject({ committed: true, inserted: 0, unchanged: 6, conflictCount: 0 });
    expect(await stored(meterA)).toHaveLength(5);
  });

  it('stores nothing in strict mode when a line is rejected', async () => {
    const response = await importFile(messy, 'format=csv&strict=true');
    expect(response.statusCode).toBe(422);
    const body = response.json<{ message: string; report: ImportReport }>();
    expect(body.message).toMatch(/Strict mode: 9 lines were rejected/);
    expect(body.report).toMatchObject({ committed: false, inserted: 0, rejectedCount: 9 });
    expect(await stored(meterA)).toEqual([]);
  });

  it('reports an instant already stored with another value, and never overwrites it', async () => {
    await insertReadings(t.db, meterB, [[Date.parse('2024-02-01T00:00:00Z'), 5_000]]);
    const file =
      'meter_number,timestamp,register_kwh\nIMP-B,2024-02-01T00:00:00Z,6\nIMP-B,2024-02-01T00:15:00Z,6.1\n';
    const report = (await importFile(file, '')).json<ImportReport>();
    expect(report).toMatchObject({ inserted: 1, conflictCount: 1 });
    expect(report.conflicts).toEqual([
      { line: 2, meterNumber: 'IMP-B', at: '2024-02-01T00:00:00.000Z', stored: 5, incoming: 6 },
    ]);
    expect((await stored(meterB))[0]).toMatchObject({ milli: 5_000 });
  });

  it('calls a register at an instant already stored a conflict, not a fall below an older one (issue 34 low)', async () => {
    // Stored: 12:00 22,047.400, 12:15 22,047.540, 12:45 22,047.700. The file brings 12:30
    // (22,047.636, between its stored neighbours) and 12:45 at 22,040.100, another value for an
    // instant already stored: a conflict. It was refused as "below the previous register
    // 22,047.54" (the 12:15 reading), although the 12:30 one comes right before it.
    await insertReadings(t.db, meterB, [
      [Date.parse('2024-04-01T12:00:00Z'), 22_047_400],
      [Date.parse('2024-04-01T12:15:00Z'), 22_047_540],
      [Date.parse('2024-04-01T12:45:00Z'), 22_047_700],
    ]);
    const file = [
      'meter_number,timestamp,register_kwh',
      'IMP-B,2024-04-01T12:30:00Z,22047.636', // 2
      'IMP-B,2024-04-01T12:45:00Z,22040.1', // 3
    ].join('\n');
    const report = (await importFile(file, '')).json<ImportReport>();
    expect(report).toMatchObject({ committed: true, inserted: 1, rejectedCount: 0, conflictCount: 1 });
    expect(report.conflicts).toEqual([
      { line: 3, meterNumber: 'IMP-B', at: '2024-04-01T12:45:00.000Z', stored: 22_047.7, incoming: 22_040.1 },
    ]);
    expect((await stored(meterB)).map((row) => row.milli)).toEqual([
      22_047_400, 22_047_540, 22_047_636, 22_047_700,
    ]);
  });

  it('keeps interval energies as intervals, exactly, beside a stored register', async () => {
    await insertReadings(t.db, meterB, [[Date.parse('2024-03-01T00:00:00Z'), 1_000_000]]);
    const file = [
      'meter_number,timestamp,interval_kwh,quality,channel',
      'IMP-B,2024-03-01T00:45:00Z,0.300,,', // out of order: order does not matter
      'IMP-B,2024-03-01T00:15:00Z,0.100,A,import',
      'IMP-B,2024-03-01T00:30:00Z,0.2004,estimated,',
      'IMP-B,2024-03-01T01:00:00Z,-0.1,,',
      'IMP-B,2024-03-01T00:15:00Z,1.5,,export',
    ].join('\r\n');
    const report = (await importFile(file, 'timeZone=UTC')).json<ImportReport>();
    expect(report).toMatchObject({ inserted: 4, rejectedCount: 1 });
    expect(await stored(meterB)).toEqual([{ at: '2024-03-01T00:00', milli: 1_000_000, source: 0 }]);
    // Each row is the energy of the meter's 15 minutes ending at its timestamp.
    expect(await storedIntervals(meterB)).toEqual([
      { from: '2024-03-01T00:00', to: '2024-03-01T00:15', micro: 100_000, channel: 1 },
      { from: '2024-03-01T00:15', to: '2024-03-01T00:30', micro: 200_400, channel: 1 },
      { from: '2024-03-01T00:30', to: '2024-03-01T00:45', micro: 300_000, channel: 1 },
      { from: '2024-03-01T00:00', to: '2024-03-01T00:15', micro: 1_500_000, channel: 2 },
    ]);
    // The export readings gave the meter its export channel.
    expect((await t.db.query('SELECT channels FROM meters WHERE device_id = $1', [meterB]))[0]).toEqual({
      channels: [1, 2],
    });
    expect((await importFile(file, 'timeZone=UTC')).json<ImportReport>()).toMatchObject({
      inserted: 0,
      unchanged: 4,
    });
  });

  it('refuses a file with wrong columns, storing nothing', async () => {
    for (const header of [
      'meter,time,kwh',
      'meter_number,timestamp,register_kwh,interval_kwh',
      'meter_number,timestamp',
    ]) {
      const response = await importFile(`${header}\nIMP-A,2024-01-01T00:00:00Z,1\n`, 'format=csv');
      expect(response.statusCode, header).toBe(422);
      expect(response.json<{ report: ImportReport }>().report.refusal).toMatch(
        /Wrong columns .*expected meter_number,timestamp,register_kwh/,
      );
    }
    expect((await importFile('', 'format=csv')).statusCode).toBe(422);
    expect(await stored(meterA)).toEqual([]);
    expect((await importFile('x', 'timeZone=Mars/Base')).json()).toMatchObject({
      statusCode: 400,
      param: 'timeZone',
    });
    expect((await importFile('x', '', 'application/json')).statusCode).toBe(400);
  });
});

describe('CSV import: what the review stored', () => {
  it('refuses a back-filled register above the next stored one (a false register decrease)', async () => {
    const first = [
      'meter_number,timestamp,register_kwh',
      'IMP-A,2024-01-01T00:00:00Z,100',
      'IMP-A,2024-01-01T02:00:00Z,110',
    ];
    expect((await importFile(first.join('\n'), 'format=csv')).json<ImportReport>()).toMatchObject({
      inserted: 2,
    });
    const backFill = [
      'meter_number,timestamp,register_kwh',
      'IMP-A,2024-01-01T01:00:00Z,120', // 2 above 110 stored at 02:00
      'IMP-A,2024-01-01T01:30:00Z,105', // 3 fits between 100 and 110
    ];
    const report = (await importFile(backFill.join('\n'), 'format=csv')).json<ImportReport>();
    expect(report).toMatchObject({ inserted: 1, rejectedCount: 1 });
    expect(report.rejected[0]).toMatchObject({ line: 2 });
    expect(report.rejected[0]?.reason).toMatch(/register 120 is above the next stored register 110/);
    expect((await stored(meterA)).map((row) => row.milli)).toEqual([100_000, 105_000, 110_000]);
  });

  it('refuses a 20 MB line as too long without holding it, and imports the lines around it', async () => {
    const file = [
      'meter_number,timestamp,register_kwh',
      'IMP-A,2024-01-01T00:00:00Z,100',
      `IMP-A,2024-01-01T00:15:00Z,${'1'.repeat(20 * 1024 * 1024)}`,
      'IMP-A,2024-01-01T00:30:00Z,101',
    ].join('\n');
    const report = (await importFile(file, 'format=csv')).json<ImportReport>();
    expect(report).toMatchObject({ rowsRead: 3, inserted: 2, rejectedCount: 1 });
    expect(report.rejected[0]).toEqual({
      line: 3,
      reason: 'line is longer than 10000 characters.',
      code: 'lineTooLong',
      params: { max: 10_000 },
    });
  });
});

describe('a meterNumber given to a file', () => {
  const lcl = readFileSync(
    path.resolve(
      import.meta.dirname,
      '../../../../../fixtures/real/lcl-london-halfhourly/lcl_2013_halfhourly_6meters.csv',
    ),
    'utf8',
  );
  let lclMeter: number;
  beforeAll(async () => {
    const london = await insertLocation(t.db, 'London Homes', 'Europe/London');
    lclMeter = await insertMeter(t.db, {
      meterNumber: 'IMP-LCL',
      locationId: london,
      meterInd: 1,
      intervalMinutes: 30,
      installedAt: new Date('2012-01-01T00:00:00Z'),
    });
  });

  it('is refused, naming them, when the file names several meters (the LCL preset)', async () => {
    // The fixture holds six households (its LCLid column; see its SOURCE.md).
    const response = await importFile(lcl, 'preset=lcl&meterNumber=IMP-LCL');
    expect(response.statusCode).toBe(422);
    expect(response.json<{ report: ImportReport }>().report.refusal).toBe(
      'This file names 6 meters (MAC000002, MAC000005, MAC000015, MAC000016, MAC000028, MAC000031): meterNumber IMP-LCL would put all their readings on one meter. Leave meterNumber out to import each to the meter of its number.',
    );
    expect(await storedIntervals(lclMeter)).toEqual([]);
  });

  it('puts a file of one meter onto the meter given, whatever the file calls it', async () => {
    // The header and MAC000002's first two half hours (0.219 and 0.241 kWh, UTC starts).
    const oneMeter = lcl.split('\n').slice(0, 3).join('\n');
    const report = (await importFile(oneMeter, 'preset=lcl&meterNumber=IMP-LCL')).json<ImportReport>();
    expect(report).toMatchObject({ committed: true, inserted: 2, rejectedCount: 0 });
    expect(await storedIntervals(lclMeter)).toEqual([
      { from: '2013-01-01T00:00', to: '2013-01-01T00:30', micro: 219_000, channel: 1 },
      { from: '2013-01-01T00:30', to: '2013-01-01T01:00', micro: 241_000, channel: 1 },
    ]);
  });
});

describe('ESPI import', () => {
  const espi = (readingType: string, readings: string) => `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <entry><content><ReadingType xmlns="http://naesb.org/espi">${readingType}</ReadingType></content></entry>
  <entry><content><IntervalBlock xmlns="http://naesb.org/espi">
${readings}
  </IntervalBlock></content></entry>
</feed>`;
  const reading = (start: number, duration: number, value: string) =>
    `    <IntervalReading><timePeriod><duration>${duration}</duration><start>${start}</start></timePeriod><value>${value}</value></IntervalReading>`;
  const t0 = Date.parse('2024-01-01T00:00:00Z') / 1000;

  it('honours powerOfTenMultiplier and cumulative accumulation', async () => {
    const file = espi(
      '<accumulationBehaviour>1</accumulationBehaviour><powerOfTenMultiplier>3</powerOfTenMultiplier><uom>72</uom>',
      [reading(t0, 0, '12'), reading(t0 + 3600, 0, '13'), reading(t0 + 7200, 0, '1.5')].join('\n'),
    );
    const report = (await importFile(file, 'meterNumber=IMP-B', 'application/atom+xml')).json<ImportReport>();
    expect(report).toMatchObject({ format: 'espi', rowsRead: 3, inserted: 2, rejectedCount: 1 });
    expect(report.rejected[0]).toMatchObject({ line: 7, reason: 'value "1.5" is not a whole number.' });
    // 12 × 10^3 Wh = 12 kWh = 12,000 thousandths.
    expect(await stored(meterB)).toEqual([
      { at: '2024-01-01T00:00', milli: 12_000, source: 1 },
      { at: '2024-01-01T01:00', milli: 13_000, source: 1 },
    ]);
  });

  it('reads delta data as intervals [start, start + duration), to the mWh', async () => {
    const file = espi(
      '<accumulationBehaviour>4</accumulationBehaviour><powerOfTenMultiplier>-1</powerOfTenMultiplier><uom>72</uom>',
      [reading(t0, 3600, '4500'), reading(t0 + 3600, 3600, '5005')].join('\n'),
    );
    const report = (await importFile(file, 'meterNumber=IMP-B', 'application/atom+xml')).json<ImportReport>();
    expect(report).toMatchObject({ inserted: 2 });
    expect(await stored(meterB)).toEqual([]);
    // 4500 × 10^-1 Wh = 450 Wh; 5005 × 10^-1 Wh = 500.5 Wh.
    expect(await storedIntervals(meterB)).toEqual([
      { from: '2024-01-01T00:00', to: '2024-01-01T01:00', micro: 450_000, channel: 1 },
      { from: '2024-01-01T01:00', to: '2024-01-01T02:00', micro: 500_500, channel: 1 },
    ]);
  });

  const refused: Array<[string, string, RegExp]> = [
    [
      'billion laughs',
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><feed xmlns="http://www.w3.org/2005/Atom"><title>&lol3;</title></feed>`,
      /DOCTYPE/,
    ],
    [
      'external entity',
      `<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><feed xmlns="http://www.w3.org/2005/Atom"><title>&xxe;</title></feed>`,
      /DOCTYPE/,
    ],
    [
      'undeclared entity',
      `<feed xmlns="http://www.w3.org/2005/Atom"><title>&xxe;</title></feed>`,
      /not well-formed/,
    ],
    [
      'truncated',
      espi('<accumulationBehaviour>4</accumulationBehaviour><uom>72</uom>', reading(t0, 3600, '1')).slice(
        0,
        -60,
      ),
      /truncated|not well-formed/,
    ],
    [
      'gas',
      espi('<accumulationBehaviour>4</accumulationBehaviour><uom>169</uom>', reading(t0, 3600, '1')),
      /ReadingType uom 169 \(therms\) is not supported/,
    ],
    ['not atom', '<html><body/></html>', /expected an Atom <feed>/],
    [
      'a text longer than any ESPI value',
      `<feed xmlns="http://www.w3.org/2005/Atom"><title>${'x'.repeat(70_000)}</title></feed>`,
      /<title> holds more than 65,536 characters of text/,
    ],
  ];
  it.each(refused)('refuses %s with a clear report and stores nothing', async (_name, xml, message) => {
    const response = await importFile(xml, 'meterNumber=IMP-B&format=espi', 'application/xml');
    expect(response.statusCode).toBe(422);
    const body = response.json<{ report: ImportReport }>();
    expect(body.report.committed).toBe(false);
    expect(body.report.refusal).toMatch(message);
    expect(await stored(meterB)).toEqual([]);
  });

  it('refuses a feed labelled cumulative whose values fall often while its readings have durations (mixed evidence)', async () => {
    // 5, 3, 6, 2, 7, 1: five steps, three of them down; every reading lasts an hour.
    const file = espi(
      '<accumulationBehaviour>1</accumulationBehaviour><uom>72</uom>',
      [5, 3, 6, 2, 7, 1].map((value, i) => reading(t0 + 3600 * i, 3600, String(value))).join('\n'),
    );
    const response = await importFile(file, 'meterNumber=IMP-B', 'application/atom+xml');
    expect(response.statusCode).toBe(422);
    expect(response.json<{ report: ImportReport }>().report.refusal).toBe(
      'The ReadingType says cumulative (accumulationBehaviour 1), but its values fall 3 times in 5 steps, and 6 of its 6 readings have a duration: whether they are registers or interval energies cannot be told from the file.',
    );
    expect(await stored(meterB)).toEqual([]);
  });

  it('keeps a feed labelled cumulative that falls now and then a register, refusing each fall', async () => {
    // 21 hourly registers rising by 1 kWh, three of them 0.5 kWh below the one before: 3 falls in
    // 20 steps, fewer than one in five, so a register's values with three bad lines.
    const values = Array.from({ length: 21 }, (_, i) =>
      i % 7 === 3 ? 100_000 + i * 1000 - 1500 : 100_000 + i * 1000,
    );
    const file = espi(
      '<accumulationBehaviour>1</accumulationBehaviour><uom>72</uom>',
      values.map((value, i) => reading(t0 + 3600 * i, 0, String(value))).join('\n'),
    );
    const report = (await importFile(file, 'meterNumber=IMP-B', 'application/atom+xml')).json<ImportReport>();
    expect(report).toMatchObject({ committed: true, inserted: 18, rejectedCount: 3, notes: [] });
    expect(report.rejected.map((line) => line.code)).toEqual([
      'belowPrevious',
      'belowPrevious',
      'belowPrevious',
    ]);
    expect(await storedIntervals(meterB)).toEqual([]);
  });

  it("refuses a cumulative reading that does not fit the meter's register digits, line by line", async () => {
    // The review stored 5,000,000,000 kWh on a 6-digit meter and showed it as consumption. IMP-A has 5 digits.
    const file = espi(
      '<accumulationBehaviour>1</accumulationBehaviour><uom>72</uom>',
      [
        reading(t0, 0, '5000000'),
        reading(t0 + 3600, 0, '5000000000000'),
        reading(t0 + 7200, 0, '5001000'),
      ].join('\n'),
    );
    const report = (await importFile(file, 'meterNumber=IMP-A', 'application/atom+xml')).json<ImportReport>();
    expect(report).toMatchObject({ rowsRead: 3, inserted: 2, rejectedCount: 1 });
    expect(report.rejected[0]?.reason).toBe(
      "the register (5000000000 kWh) does not fit meter IMP-A's 5 digits.",
    );
    expect(await stored(meterA)).toEqual([
      { at: '2024-01-01T00:00', milli: 5_000_000, source: 1 },
      { at: '2024-01-01T02:00', milli: 5_001_000, source: 1 },
    ]);
  });

  /** A feed whose entries are linked as ESPI links them, in the order given. */
  const linkedFeed = (entries: string[]) =>
    `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">${entries.join('\n')}</feed>`;
  const usagePoint = (id: string, title: string, kind = 0) =>
    `<entry><link rel="self" href="/espi/UsagePoint/${id}"/><title>${title}</title><content><UsagePoint xmlns="http://naesb.org/espi"><ServiceCategory><kind>${kind}</kind></ServiceCategory></UsagePoint></content></entry>`;
  const meterReading = (point: string, type: string) =>
    `<entry><link rel="self" href="/espi/UsagePoint/${point}/MeterReading/1"/><link rel="related" href="/espi/ReadingType/${type}"/><content><MeterReading xmlns="http://naesb.org/espi"/></content></entry>`;
  const readingType = (id: string, facts: string) =>
    `<entry><link rel="self" href="/espi/ReadingType/${id}"/><content><ReadingType xmlns="http://naesb.org/espi">${facts}</ReadingType></content></entry>`;
  const block = (point: string, readings: string) =>
    `<entry><content><IntervalBlock xmlns="http://naesb.org/espi">${readings}</IntervalBlock></content><link rel="self" href="/espi/UsagePoint/${point}/MeterReading/1/IntervalBlock/1"/><link rel="up" href="/espi/UsagePoint/${point}/MeterReading/1/IntervalBlock"/></entry>`;
  const delta = '<accumulationBehaviour>4</accumulationBehaviour><uom>72</uom>';

  it('reads entries in any order, following their links: ReadingTypes after the blocks, links after the content', async () => {
    const file = linkedFeed([
      block('9', reading(t0, 3600, '700')),
      meterReading('9', 'received'),
      usagePoint('9', 'Roof'),
      readingType('received', `${delta}<flowDirection>19</flowDirection>`),
    ]);
    const report = (await importFile(file, 'meterNumber=IMP-B', 'application/atom+xml')).json<ImportReport>();
    expect(report).toMatchObject({ committed: true, inserted: 1, rejectedCount: 0 });
    expect(await storedIntervals(meterB)).toEqual([
      { from: '2024-01-01T00:00', to: '2024-01-01T01:00', micro: 700_000, channel: 2 },
    ]);
  });

  it('sends several UsagePoints to several meters, by title or by the usagePoints option, and names the unmapped', async () => {
    const file = linkedFeed([
      usagePoint('1', 'IMP-A'),
      usagePoint('2', 'IMP-B'),
      readingType('d', delta),
      meterReading('1', 'd'),
      meterReading('2', 'd'),
      block('1', reading(t0, 3600, '1000')),
      block('2', reading(t0, 3600, '2000')),
    ]);
    // A meterNumber given to it would put both points on one meter: refused, naming them.
    const oneMeter = await importFile(file, 'meterNumber=IMP-B', 'application/xml');
    expect(oneMeter.statusCode).toBe(422);
    expect(oneMeter.json().report.refusal).toMatch(
      /^This file holds 2 UsagePoints \("IMP-A", "IMP-B"\): meterNumber IMP-B would put all their readings on one meter/,
    );
    expect(await storedIntervals(meterB)).toEqual([]);
    const report = (await importFile(file, '', 'application/xml')).json<ImportReport>();
    expect(report).toMatchObject({ committed: true, inserted: 2 });
    expect((await storedIntervals(meterA)).map((row) => row.micro)).toEqual([1_000_000]);
    expect((await storedIntervals(meterB)).map((row) => row.micro)).toEqual([2_000_000]);
    const unnamed = linkedFeed([
      usagePoint('1', 'Flat 1'),
      usagePoint('2', 'Flat 2'),
      readingType('d', delta),
      meterReading('1', 'd'),
      block('1', reading(t0, 3600, '1')),
    ]);
    const refused = await importFile(unnamed, '', 'application/xml');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().report.refusal).toMatch(
      /holds 2 UsagePoints.*"Flat 1" \(UsagePoint 1\), "Flat 2" \(UsagePoint 2\)/,
    );
  });

  /**
   * A net-metered feed laid out as PG&E's Green Button exports are, with their hrefs redacted the
   * way shared PG&E files are (every id written "REDACTED"): the ReadingTypes first, then the
   * UsagePoint, then each MeterReading followed by its IntervalBlocks. Both MeterReadings, and
   * both their blocks' links, read ".../UsagePoint/REDACTED/MeterReading/REDACTED".
   */
  const PGE = 'https://api.pge.com/GreenButtonConnect/espi/1_1/resource';
  const pgePoint = `${PGE}/Subscription/REDACTED/UsagePoint/REDACTED`;
  const pgeReadingType = (id: string, flow: number) =>
    `<entry><link href="${PGE}/ReadingType/${id}" rel="self"/><content><ReadingType xmlns="http://naesb.org/espi"><accumulationBehaviour>4</accumulationBehaviour><commodity>1</commodity><flowDirection>${flow}</flowDirection><powerOfTenMultiplier>-3</powerOfTenMultiplier><uom>72</uom></ReadingType></content></entry>`;
  const pgeMeterReading = (readingTypeId: string) =>
    `<entry><link href="${pgePoint}/MeterReading" rel="up"/><link href="${pgePoint}/MeterReading/REDACTED" rel="self"/><link href="${pgePoint}/MeterReading/REDACTED/IntervalBlock" rel="related"/><link href="${PGE}/ReadingType/${readingTypeId}" rel="related"/><content><MeterReading xmlns="http://naesb.org/espi"/></content></entry>`;
  const pgeBlock = (values: number[]) =>
    `<entry><link href="${pgePoint}/MeterReading/REDACTED/IntervalBlock" rel="up"/><link href="${pgePoint}/MeterReading/REDACTED/IntervalBlock/${t0}" rel="self"/><content><IntervalBlock xmlns="http://naesb.org/espi">${values.map((value, i) => reading(t0 + 3600 * i, 3600, String(value))).join('')}</IntervalBlock></content></entry>`;
  const pgeUsagePoint = `<entry><link href="${pgePoint}" rel="self"/><link href="${pgePoint}/MeterReading" rel="related"/><title>Green Button Data File</title><content><UsagePoint xmlns="http://naesb.org/espi"><ServiceCategory><kind>0</kind></ServiceCategory></UsagePoint></content></entry>`;

  it('tells apart two MeterReadings with the same href by document order, and says so', async () => {
    const file = linkedFeed([
      pgeReadingType('delivered', 1),
      pgeReadingType('received', 19),
      pgeUsagePoint,
      pgeMeterReading('delivered'),
      pgeBlock([1500, 2500]),
      pgeMeterReading('received'),
      pgeBlock([0, 700]),
    ]);
    const report = (await importFile(file, 'meterNumber=IMP-B', 'application/atom+xml')).json<ImportReport>();
    expect(report).toMatchObject({ committed: true, inserted: 4, conflictCount: 0, rejectedCount: 0 });
    // Values in mWh (powerOfTenMultiplier −3): 1500 → 1.5 Wh = 1,500 millionths of a kWh.
    expect(await storedIntervals(meterB)).toEqual([
      { from: '2024-01-01T00:00', to: '2024-01-01T01:00', micro: 1_500, channel: 1 },
      { from: '2024-01-01T01:00', to: '2024-01-01T02:00', micro: 2_500, channel: 1 },
      { from: '2024-01-01T00:00', to: '2024-01-01T01:00', micro: 0, channel: 2 },
      { from: '2024-01-01T01:00', to: '2024-01-01T02:00', micro: 700, channel: 2 },
    ]);
    expect(report.notes).toEqual([
      expect.stringMatching(
        /^2 MeterReadings share the link ".*\/MeterReading\/REDACTED": told apart by the order of the file/,
      ),
    ]);
  });

  it('refuses MeterReadings with the same href that neither order nor ReadingType links tell apart, naming it', async () => {
    const file = linkedFeed([
      pgeReadingType('delivered', 1),
      pgeReadingType('received', 19),
      pgeUsagePoint,
      pgeMeterReading('delivered'),
      pgeMeterReading('received'),
      pgeBlock([1500, 2500]),
      pgeBlock([0, 700]),
    ]);
    const response = await importFile(file, 'meterNumber=IMP-B', 'application/atom+xml');
    expect(response.statusCode).toBe(422);
    expect(response.json<{ report: ImportReport }>().report.refusal).toMatch(
      /^2 MeterReadings share the link ".*\/MeterReading\/REDACTED", and no IntervalBlock follows the one at entry 4/,
    );
    expect(await storedIntervals(meterB)).toEqual([]);
    // Their ReadingType links redacted too: nothing tells delivered from received.
    const redacted = linkedFeed([
      pgeReadingType('delivered', 1),
      pgeReadingType('received', 19),
      pgeUsagePoint,
      pgeMeterReading('REDACTED'),
      pgeBlock([1500, 2500]),
      pgeMeterReading('REDACTED'),
      pgeBlock([0, 700]),
    ]);
    const unknown = await importFile(redacted, 'meterNumber=IMP-B', 'application/atom+xml');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json<{ report: ImportReport }>().report.refusal).toMatch(
      /^2 MeterReadings share the link ".*", and their ReadingType links do not name distinct ReadingTypes of the file/,
    );
    expect(await storedIntervals(meterB)).toEqual([]);
  });

  it('reads a ReadingType without accumulationBehaviour as interval deltas, and says so in the report', async () => {
    const file = espi('<uom>72</uom>', reading(t0, 3600, '250'));
    const report = (await importFile(file, 'meterNumber=IMP-B', 'application/atom+xml')).json<ImportReport>();
    expect(report).toMatchObject({ inserted: 1 });
    expect(report.notes).toEqual([
      expect.stringMatching(/no accumulationBehaviour: its values were read as interval deltas/),
    ]);
    expect((await storedIntervals(meterB)).map((row) => row.micro)).toEqual([250_000]);
  });

  it('refuses a real gas file naming its commodity and unit (fixtures/real/greenbutton-samples/gas_direct.xml)', async () => {
    const file = readFileSync(
      path.resolve(import.meta.dirname, '../../../../../fixtures/real/greenbutton-samples/gas_direct.xml'),
      'utf8',
    );
    const response = await importFile(file, 'meterNumber=IMP-B', 'application/atom+xml');
    expect(response.statusCode).toBe(422);
    expect(response.json().report.refusal).toBe(
      'UsagePoint "1 MAIN ST, ANYTOWN ME 12345" is gas (ServiceCategory kind 1), with uom 169 (therms): Check Meter imports electricity only.',
    );
  });

  it('needs a meter number for an ESPI file', async () => {
    const response = await importFile(espi('<uom>72</uom>', ''), '', 'application/atom+xml');
    expect(response.json<{ report: ImportReport }>().report.refusal).toMatch(/meterNumber/);
  });
});
