import { expect } from 'vitest';
import type { ImportReport } from '@cm/contracts/admin.ts';
import { readingsAnswer, type TestApp } from '../../test/test-app.ts';
import { insertIntervals, insertLocation, insertMeter, insertReadings } from '../../test/factories.ts';

// For tests: a meter's stored readings exported (CSV and ESPI) and imported again, into the same
// meter and into a new one (exports.round-trip.test.ts and its property test).

/** One channel's readings as stored: registers [instant ms, Wh, quality], intervals [start ms, end ms, mWh, quality]. */
export interface ChannelData {
  channel: 1 | 2;
  registers: Array<readonly [number, number, number]>;
  intervals: Array<readonly [number, number, number, number]>;
}

export interface RoundTripCase {
  /** A location of its own, named after the case. */
  site: string;
  timeZone: string;
  intervalMinutes: number;
  multiplier: number;
  /** Import first; every reading lies in the local days From to To (registers up to the next midnight). */
  channels: ChannelData[];
  From: string;
  To: string;
}

const readingsCount = (channels: ChannelData[]) =>
  channels.reduce((sum, c) => sum + c.registers.length + c.intervals.length, 0);

/** A meter's days as the check API answers them: per channel, each day's energy and its estimated and substituted values. */
async function dailyTotals(
  t: TestApp,
  token: string,
  site: string,
  meterInd: number,
  From: string,
  To: string,
) {
  const query = new URLSearchParams({ name: site, From, To, meterInd: String(meterInd), granularity: 'day' });
  const response = await t.call(
    'GET',
    `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?${query.toString()}`,
    { token },
  );
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  const series = readingsAnswer(response).meters[0]?.series;
  const other = series?.other;
  return {
    t: series?.t,
    import: series?.consumption,
    export: other?.consumption ?? null,
    // How many estimated and substituted values each day holds, per channel.
    qualities: [series?.estimated, series?.substituted, other?.estimated, other?.substituted],
  };
}

async function importFile(t: TestApp, token: string, body: string, query: string): Promise<ImportReport> {
  const response = await t.call('POST', `/api/admin/imports${query}`, {
    token,
    body,
    headers: { 'content-type': 'text/plain' },
  });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return response.json<ImportReport>();
}

/**
 * Stores the case's readings on a new meter, exports them as CSV and as ESPI, and imports each
 * file (1) into the same meter: every reading reported unchanged, nothing inserted, refused or in
 * conflict; (2) into a new meter at the same location: every reading inserted, and the same daily
 * totals per channel as the first meter's. Answers those daily totals.
 */
export async function expectRoundTrip(
  t: TestApp,
  admin: string,
  c: RoundTripCase,
): Promise<Awaited<ReturnType<typeof dailyTotals>>> {
  const location = await insertLocation(t.db, c.site, c.timeZone);
  const hasExport = c.channels.some((channel) => channel.channel === 2);
  const meter = (meterInd: number) =>
    insertMeter(t.db, {
      meterNumber: `${c.site}-${meterInd}`,
      locationId: location,
      meterInd,
      installedAt: new Date('2020-01-01T00:00:00Z'),
      intervalMinutes: c.intervalMinutes,
      multiplier: c.multiplier,
      hasExport,
    });
  const original = await meter(1);
  for (const channel of c.channels) {
    await insertReadings(t.db, original, channel.registers, channel.channel);
    await insertIntervals(t.db, original, channel.intervals, channel.channel);
  }
  const count = readingsCount(c.channels);
  const want = await dailyTotals(t, admin, c.site, 1, c.From, c.To);
  for (const [index, format] of (['csv', 'espi'] as const).entries()) {
    const label = `${c.site} ${format}`;
    const exported = await t.call(
      'GET',
      `/api/admin/exports/readings?${new URLSearchParams({ meterNumber: `${c.site}-1`, From: c.From, To: c.To, format }).toString()}`,
      { token: admin },
    );
    expect(exported.statusCode, label).toBe(200);
    const same = await importFile(
      t,
      admin,
      exported.body,
      format === 'espi' ? `?meterNumber=${encodeURIComponent(`${c.site}-1`)}` : '',
    );
    expect(same, `${label}, into the same meter`).toMatchObject({
      committed: true,
      rowsRead: count,
      inserted: 0,
      unchanged: count,
      corrected: 0,
      conflictCount: 0,
      rejectedCount: 0,
    });
    // A new meter: the CSV's meter_number column renamed (as an administrator would), the ESPI
    // file given the meter number.
    const meterInd = 2 + index;
    const target = `${c.site}-${meterInd}`;
    await meter(meterInd);
    const body =
      format === 'csv'
        ? exported.body
            .split('\r\n')
            .map((line, i) => (i === 0 || line === '' ? line : line.replace(/^[^,]*,/, `${target},`)))
            .join('\r\n')
        : exported.body;
    const fresh = await importFile(
      t,
      admin,
      body,
      format === 'espi' ? `?meterNumber=${encodeURIComponent(target)}` : '',
    );
    expect(fresh, `${label}, into a new meter`).toMatchObject({
      committed: true,
      inserted: count,
      conflictCount: 0,
      rejectedCount: 0,
    });
    expect(await dailyTotals(t, admin, c.site, meterInd, c.From, c.To), `${label}, daily totals`).toEqual(
      want,
    );
  }
  return want;
}
