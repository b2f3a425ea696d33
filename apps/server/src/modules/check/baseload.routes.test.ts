import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import { baseloadSchema, type Baseload } from '@cm/contracts/baseload.ts';
import { localParts } from '@cm/contracts/zoned-time.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import { insertLocation, insertMeter, insertReadings } from '../../test/factories.ts';

// GET /api/CheckMeter/GetBaseload on a Berlin meter (CET all January, no DST) whose quarter
// hours use, by the local hour they start in: 250 Wh by day (1 kW), and at night (00:00–06:00)
// 75 Wh (0.3 kW) up to the night of 14 January, 50 Wh (0.2 kW) from the night of the 15th.

const QUARTER = 15 * 60_000;
const FIRST = Date.parse('2025-12-24T23:00:00Z'); // 25 December 00:00 CET
const LAST = Date.parse('2026-01-21T23:00:00Z'); // 22 January 00:00 CET

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@base.cm', password: 'Admin!pass1', role: Role.Admin });
  const location = await insertLocation(t.db, 'Night Street', 'Europe/Berlin');
  const meter = await insertMeter(t.db, {
    meterNumber: 'EM-NIGHT',
    locationId: location,
    meterInd: 1,
    installedAt: new Date(FIRST - 86_400_000),
  });
  const readings: [number, number][] = [];
  let register = 1000;
  for (let at = FIRST; at <= LAST; at += QUARTER) {
    readings.push([at, register]);
    const local = localParts(at, 'Europe/Berlin');
    const isNight = local.hour < 6;
    const isLater = local.year === 2026 && local.day >= 15;
    register += isNight ? (isLater ? 50 : 75) : 250;
  }
  await insertReadings(t.db, meter, readings);
  admin = (await t.login('admin@base.cm', 'Admin!pass1')).token;
});
afterAll(async () => {
  await t?.close();
});

const ask = (params: Record<string, string>) =>
  t.call('GET', `/api/CheckMeter/GetBaseload?${new URLSearchParams(params).toString()}`, { token: admin });

describe('GET /api/CheckMeter/GetBaseload', () => {
  it('gives the baseload of the 14 nights before the end and the night share, each against before', async () => {
    const answer = await ask({ meterNumber: 'EM-NIGHT', From: '2026-01-15', To: '2026-01-21' });
    expect(answer.statusCode).toBe(200);
    const body = baseloadSchema.strict().parse(answer.json()) satisfies Baseload;
    // Nights of 8–21 January: seven lows of 0.3 kW (8–14), seven of 0.2 kW (15–21): the median is
    // the mean of the middle two, 0.25 kW. The 14 before (25 December – 7 January): all 0.3 kW.
    expect(body.baseload).toEqual({
      kw: 0.25,
      nights: 14,
      from: '2026-01-07T23:00:00.000Z',
      to: '2026-01-21T05:00:00.000Z',
    });
    expect(body.previousBaseload).toMatchObject({ kw: 0.3, nights: 14, from: '2025-12-24T23:00:00.000Z' });
    // 15–21 January: a day is 6 h × 0.2 kW = 1.2 kWh at night and 18 h × 1 kW = 18 kWh by day;
    // 7 days: 8.4 of 134.4 kWh, 0.0625. The 7 days before (8–14): 7 × 1.8 = 12.6 of 7 × 19.8 =
    // 138.6 kWh, 0.090909… → 0.0909.
    expect(body.night).toEqual({
      from: '2026-01-14T23:00:00.000Z',
      to: '2026-01-21T23:00:00.000Z',
      nightEnergy: 8.4,
      energy: 134.4,
      share: 0.0625,
    });
    expect(body.previousNight).toEqual({
      from: '2026-01-07T23:00:00.000Z',
      to: '2026-01-14T23:00:00.000Z',
      nightEnergy: 12.6,
      energy: 138.6,
      share: 0.0909,
    });
  });

  it('refuses what it cannot answer with a clear message', async () => {
    const missing = await ask({ meterNumber: 'EM-NONE', From: '2026-01-15', To: '2026-01-21' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ message: string }>().message).toBe('Meter not found. Check the meter number.');
    const long = await ask({ meterNumber: 'EM-NIGHT', From: '2020-01-01', To: '2026-01-21' });
    expect(long.statusCode).toBe(400);
    const wrong = await ask({ meterNumber: 'EM-NIGHT', From: 'yesterday', To: '2026-01-21' });
    expect(wrong.statusCode).toBe(400);
  });
});
