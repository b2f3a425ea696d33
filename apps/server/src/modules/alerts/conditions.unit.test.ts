import { describe, expect, it } from 'vitest';
import type { DayAsk, DayRegisters } from '../readings/index.ts';
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
  type Rule,
  type WatchedMeter,
} from './conditions.ts';

// Every alert condition on hand-made meters and days. Each expected figure is worked out by hand
// in the comment beside it; Brussels is UTC+1 in winter (CET) and UTC+2 in summer (CEST), and in
// 2026 its clocks go forward on Sunday 29 March and back on Sunday 25 October.

const at = (text: string) => Date.parse(text);
const KWH = 1_000_000;
const HOUR = 3_600_000;

const meter: WatchedMeter = {
  id: 7,
  meterNumber: 'M-7',
  locationId: 1,
  locationName: 'North Pier',
  timeZone: 'Europe/Brussels',
  billingDay: null,
  multiplier: 1,
  registerDigits: 6,
  intervalMinutes: 15,
  installedAt: new Date('2025-01-01T00:00:00Z'),
  expectsData: true,
  lastDataAt: null,
  cubeLastSeen: null,
  hasCube: false,
  accessPointLastSeen: null,
  hasAccessPoint: false,
};

const rule = (kind: Rule['kind'], threshold: number | null): Rule => ({ id: 3, kind, threshold });

// 2026-11-26 in Brussels (UTC+1): 2026-11-25T23:00Z to 2026-11-26T23:00Z.
const day: DayAsk = {
  meterId: 7,
  start: new Date('2026-11-25T23:00:00Z'),
  end: new Date('2026-11-26T23:00:00Z'),
  slot: 0,
};

/** Register readings (kWh) at the day's edges, or at the instants given. */
const registers = (
  startKwh: number,
  endKwh: number,
  ask: DayAsk = day,
  startAt: Date = ask.start,
  endAt: Date = ask.end,
): DayRegisters => ({
  meterId: ask.meterId,
  slot: ask.slot,
  startMicro: startKwh * KWH,
  startAt: startAt,
  endMicro: endKwh * KWH,
  endAt: endAt,
  recordMicro: null,
  records: 0,
});

describe('silentCondition', () => {
  const now = at('2026-11-27T12:00:00Z');
  const silent = rule('silent', 24);

  it('holds once the last data is more than `threshold` hours old, not at exactly that age', () => {
    // 24 h before now is 2026-11-26T12:00Z: exactly the limit, not beyond it.
    const justSo = { ...meter, lastDataAt: new Date(now - 24 * HOUR) };
    expect(silentCondition(silent, justSo, now).holds).toBe(false);
    const older = { ...meter, lastDataAt: new Date(now - 24 * HOUR - 1) };
    const condition = silentCondition(silent, older, now);
    expect(condition.holds).toBe(true);
    expect(condition.startedAt).toEqual(older.lastDataAt);
    expect(condition.detail).toEqual({
      lastSeenAt: '2026-11-26T11:59:59.999Z',
      cubeSilent: null,
      accessPointSilent: null,
    });
  });

  it('counts from the installation when the meter never sent data', () => {
    // Installed 2025-01-01, no data: silent since then.
    const condition = silentCondition(silent, meter, now);
    expect(condition.holds).toBe(true);
    expect(condition.startedAt).toEqual(meter.installedAt);
    expect(condition.detail.lastSeenAt).toBeNull();
    // Installed 23 h ago: not yet.
    const fresh = { ...meter, installedAt: new Date(now - 23 * HOUR) };
    expect(silentCondition(silent, fresh, now).holds).toBe(false);
  });

  it('never holds for a meter nobody expects data from: inactive or not yet open (issue 34 low)', () => {
    // Same meter, silent since its installation in 2025, but switched off or not open yet.
    const idle = { ...meter, expectsData: false };
    expect(silentCondition(silent, idle, now).holds).toBe(false);
    const older = { ...idle, lastDataAt: new Date(now - 48 * HOUR) };
    expect(silentCondition(silent, older, now).holds).toBe(false);
  });

  it('says whether the Cube and the AccessPoint are silent by the same limit', () => {
    const withDevices = {
      ...meter,
      lastDataAt: new Date(now - 30 * HOUR),
      hasCube: true,
      cubeLastSeen: new Date(now - 30 * HOUR), // 30 h > 24 h: silent
      hasAccessPoint: true,
      accessPointLastSeen: new Date(now - 10 * 60_000), // 10 minutes: reporting
    };
    expect(silentCondition(silent, withDevices, now).detail).toMatchObject({
      cubeSilent: true,
      accessPointSilent: false,
    });
    // A Cube never seen is silent.
    expect(silentCondition(silent, { ...withDevices, cubeLastSeen: null }, now).detail.cubeSilent).toBe(true);
  });
});

describe('dayAsks', () => {
  const spans = (asks: DayAsk[]) => asks.map((a) => [a.slot, a.start.toISOString(), a.end.toISOString()]);

  it('asks for yesterday and the same weekday of the four weeks before, each from local midnight to midnight', () => {
    // Friday 2026-11-27 13:00 in Brussels; yesterday Thursday 26 November, then 19, 12, 5 November
    // and 29 October: all in winter time, 23:00Z the evening before to 23:00Z.
    expect(spans(dayAsks(meter, at('2026-11-27T12:00:00Z')))).toEqual([
      [0, '2026-11-25T23:00:00.000Z', '2026-11-26T23:00:00.000Z'],
      [1, '2026-11-18T23:00:00.000Z', '2026-11-19T23:00:00.000Z'],
      [2, '2026-11-11T23:00:00.000Z', '2026-11-12T23:00:00.000Z'],
      [3, '2026-11-04T23:00:00.000Z', '2026-11-05T23:00:00.000Z'],
      [4, '2026-10-28T23:00:00.000Z', '2026-10-29T23:00:00.000Z'],
    ]);
  });

  it('gives the spring-forward Sunday 23 hours and the fall-back Sunday 25', () => {
    // Monday 2026-03-30 12:00 CEST. Sunday 29 March starts at 00:00 CET = 2026-03-28T23:00Z and
    // ends at 00:00 CEST on the 30th = 2026-03-29T22:00Z: 23 h. The Sundays before are winter days.
    const spring = dayAsks(meter, at('2026-03-30T10:00:00Z'));
    expect(spans(spring)[0]).toEqual([0, '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    expect(spans(spring)[1]).toEqual([1, '2026-03-21T23:00:00.000Z', '2026-03-22T23:00:00.000Z']);
    // Monday 2026-10-26 11:00 CET. Sunday 25 October starts at 00:00 CEST = 2026-10-24T22:00Z and
    // ends at 00:00 CET on the 26th = 2026-10-25T23:00Z: 25 h. The Sunday before is a summer day.
    const autumn = dayAsks(meter, at('2026-10-26T10:00:00Z'));
    expect(spans(autumn)[0]).toEqual([0, '2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z']);
    expect(spans(autumn)[1]).toEqual([1, '2026-10-17T22:00:00.000Z', '2026-10-18T22:00:00.000Z']);
  });

  it("takes yesterday from the meter's local date, not the UTC one", () => {
    // 2026-03-29T22:30Z is 00:30 CEST on Monday the 30th: yesterday is Sunday the 29th.
    expect(spans(dayAsks(meter, at('2026-03-29T22:30:00Z')))[0]?.[1]).toBe('2026-03-28T23:00:00.000Z');
    // 2026-03-29T21:59Z is 23:59 CEST on the 29th: yesterday is Saturday the 28th, a 24-hour day.
    expect(spans(dayAsks(meter, at('2026-03-29T21:59:00Z')))[0]).toEqual([
      0,
      '2026-03-27T23:00:00.000Z',
      '2026-03-28T23:00:00.000Z',
    ]);
  });
});

describe('dayEnergy', () => {
  it('takes the interval records when the day has any', () => {
    // 96 quarter hours of 0.25 kWh = 24 kWh, whatever the registers say.
    const row = { ...registers(100, 500), records: 96, recordMicro: 96 * 250_000 };
    expect(dayEnergy(meter, day, row)).toBe(24 * KWH);
  });

  it('takes the register difference times the multiplier', () => {
    // 1,234.5 → 1,246.75 kWh = 12.25 kWh; a CT of 40: 490 kWh.
    expect(dayEnergy(meter, day, registers(1_234.5, 1_246.75))).toBe(12.25 * KWH);
    expect(dayEnergy({ ...meter, multiplier: 40 }, day, registers(1_234.5, 1_246.75))).toBe(490 * KWH);
  });

  it('counts a rollover', () => {
    // 6 digits wrap at 1,000,000 kWh: 999,998 → 3 is 2 kWh to the wrap and 3 after it, 5 kWh.
    expect(dayEnergy(meter, day, registers(999_998, 3))).toBe(5 * KWH);
    // 4 digits wrap at 10,000 kWh: 9,990 → 15 is 10 + 15 = 25 kWh.
    expect(dayEnergy({ ...meter, registerDigits: 4 }, day, registers(9_990, 15))).toBe(25 * KWH);
  });

  it('gives no energy for a register that went down 5 kWh (a fault, not a rollover)', () => {
    // 6 digits: the register wraps at 1,000,000 kWh. 100,000 → 99,995 is a fall of 5 kWh, far
    // less than half the range (500,000 kWh): an implausible decrease, whose energy the readings
    // engine leaves unknown. Read as a rollover it would be 1,000,000 − 5 = 999,995 kWh.
    expect(dayEnergy(meter, day, registers(100_000, 99_995))).toBeNull();
  });

  it('needs a reading within an interval and a half of each edge', () => {
    // 15-minute meter: 22.5 minutes = 1,350,000 ms of slack.
    const slack = 1_350_000;
    const early = new Date(day.start.getTime() - slack);
    const late = new Date(day.end.getTime() - slack);
    expect(dayEnergy(meter, day, registers(10, 20, day, early, late))).toBe(10 * KWH);
    const tooEarly = new Date(early.getTime() - 1);
    const tooLate = new Date(late.getTime() - 1);
    expect(dayEnergy(meter, day, registers(10, 20, day, tooEarly, day.end))).toBeNull();
    expect(dayEnergy(meter, day, registers(10, 20, day, day.start, tooLate))).toBeNull();
  });

  it('gives nothing when the day has no row or lacks a register', () => {
    expect(dayEnergy(meter, day, undefined)).toBeNull();
    expect(dayEnergy(meter, day, { ...registers(10, 20), startMicro: null })).toBeNull();
    expect(dayEnergy(meter, day, { ...registers(10, 20), endAt: null })).toBeNull();
  });

  it('reads a DST day between its own midnights', () => {
    // Spring: readings at 00:00 CET (2026-03-28T23:00Z) and 00:00 CEST (2026-03-29T22:00Z),
    // 1,000 → 1,023 kWh over the 23-hour day: 23 kWh. Had the day been taken as 24 hours, its end
    // reading would be an hour early, beyond the 22.5 minutes of slack, and the day unknown.
    const [spring] = dayAsks(meter, at('2026-03-30T10:00:00Z'));
    if (!spring) throw new Error('no spring day');
    const springRow = registers(
      1_000,
      1_023,
      spring,
      new Date('2026-03-28T23:00:00Z'),
      new Date('2026-03-29T22:00:00Z'),
    );
    expect(dayEnergy(meter, spring, springRow)).toBe(23 * KWH);
    // Autumn: 00:00 CEST (2026-10-24T22:00Z) to 00:00 CET (2026-10-25T23:00Z), 1,000 → 1,025 kWh
    // over 25 hours: 25 kWh.
    const [autumn] = dayAsks(meter, at('2026-10-26T10:00:00Z'));
    if (!autumn) throw new Error('no autumn day');
    const autumnRow = registers(
      1_000,
      1_025,
      autumn,
      new Date('2026-10-24T22:00:00Z'),
      new Date('2026-10-25T23:00:00Z'),
    );
    expect(dayEnergy(meter, autumn, autumnRow)).toBe(25 * KWH);
  });
});

describe('dailyCondition', () => {
  const asks = dayAsks(meter, at('2026-11-27T12:00:00Z'));

  it('dailyAbove holds above the threshold, not at it', () => {
    const above10 = rule('dailyAbove', 10);
    // 10 kWh = 10,000,000 millionths: at the threshold.
    const atLimit = dailyCondition(above10, meter, asks, [10 * KWH, null, null, null, null]);
    expect(atLimit.holds).toBe(false);
    const over = dailyCondition(above10, meter, asks, [10 * KWH + 1, null, null, null, null]);
    expect(over.holds).toBe(true);
    expect(over.startedAt).toEqual(day.start);
    // 10,000,001 millionths = 10.000001 kWh; no usual day with no week known.
    expect(over.detail).toEqual({ day: '2026-11-26', consumption: 10.000001, usual: null });
  });

  it('dailyAbove does not hold when yesterday is unknown (a register decrease) or without a threshold', () => {
    const unknown = dailyCondition(rule('dailyAbove', 10), meter, asks, [
      null,
      50 * KWH,
      50 * KWH,
      null,
      null,
    ]);
    expect(unknown.holds).toBe(false);
    // Weeks 1 and 2 known, 50 kWh each: usual 50 kWh; yesterday reported as 0.
    expect(unknown.detail).toEqual({ day: '2026-11-26', consumption: 0, usual: 50 });
    expect(
      dailyCondition(rule('dailyAbove', null), meter, asks, [1e9 * KWH, null, null, null, null]).holds,
    ).toBe(false);
  });

  it('a 5 kWh register decrease does not fire dailyAbove', () => {
    // The whole path: the day's energy is null (not 999,995 kWh), so 1 kWh is not exceeded.
    const energy = dayEnergy(meter, day, registers(100_000, 99_995));
    expect(dailyCondition(rule('dailyAbove', 1), meter, asks, [energy, null, null, null, null]).holds).toBe(
      false,
    );
  });

  it('usualAbove holds above threshold × the mean of the known weeks, not at it', () => {
    const twice = rule('usualAbove', 2);
    // Weeks known: 4 and 6 kWh (weeks 2 and 4 unknown): usual (4 + 6) / 2 = 5 kWh; limit 2 × 5 = 10 kWh.
    const weeks = [4 * KWH, null, 6 * KWH, null];
    expect(dailyCondition(twice, meter, asks, [10 * KWH, ...weeks]).holds).toBe(false);
    const over = dailyCondition(twice, meter, asks, [10 * KWH + 1, ...weeks]);
    expect(over.holds).toBe(true);
    expect(over.detail).toEqual({ day: '2026-11-26', consumption: 10.000001, usual: 5 });
    // Usual rounded to whole millionths: (1,000,000 + 1,000,000 + 1,000,001) / 3 = 1,000,000.33… → 1 kWh.
    const thirds = dailyCondition(twice, meter, asks, [0, KWH, KWH, KWH + 1, null]);
    expect(thirds.detail.usual).toBe(1);
  });

  it('usualAbove needs at least two known weeks and a usual day above zero', () => {
    const twice = rule('usualAbove', 2);
    // One known week (4 kWh): no usual day, so 100 kWh does not fire.
    const oneWeek = dailyCondition(twice, meter, asks, [100 * KWH, 4 * KWH, null, null, null]);
    expect(oneWeek.holds).toBe(false);
    expect(oneWeek.detail.usual).toBeNull();
    // Two known weeks of 0 kWh: usual 0, never exceeded by a ratio.
    expect(dailyCondition(twice, meter, asks, [100 * KWH, 0, 0, null, null]).holds).toBe(false);
    // Two known weeks of 4 kWh: usual 4, limit 8 kWh; 100 kWh fires.
    expect(dailyCondition(twice, meter, asks, [100 * KWH, 4 * KWH, 4 * KWH, null, null]).holds).toBe(true);
  });

  it('names a DST day by its local date', () => {
    // The spring Sunday begins at 2026-03-28T23:00Z, which is 29 March in Brussels; 23 kWh over
    // its 23 hours, above 20 kWh.
    const spring = dayAsks(meter, at('2026-03-30T10:00:00Z'));
    const condition = dailyCondition(rule('dailyAbove', 20), meter, spring, [
      23 * KWH,
      null,
      null,
      null,
      null,
    ]);
    expect(condition.holds).toBe(true);
    expect(condition.startedAt).toEqual(new Date('2026-03-28T23:00:00Z'));
    expect(condition.detail).toEqual({ day: '2026-03-29', consumption: 23, usual: null });
    // The autumn Sunday begins at 2026-10-24T22:00Z, 25 October in Brussels.
    const autumn = dayAsks(meter, at('2026-10-26T10:00:00Z'));
    expect(
      dailyCondition(rule('dailyAbove', 20), meter, autumn, [25 * KWH, null, null, null, null]).detail.day,
    ).toBe('2026-10-25');
  });
});

describe('billCondition', () => {
  const period = { from: '2026-11-15', startMs: at('2026-11-14T23:00:00Z') };

  it('holds when the bill to date is above the threshold, not at it', () => {
    const above100 = rule('billAbove', 100);
    expect(billCondition(above100, meter, { total: 100, currency: 'EUR' }, period).holds).toBe(false);
    const over = billCondition(above100, meter, { total: 100.01, currency: 'EUR' }, period);
    expect(over.holds).toBe(true);
    expect(over.startedAt).toEqual(new Date('2026-11-14T23:00:00Z'));
    expect(over.detail).toEqual({ amount: 100.01, currency: 'EUR', periodFrom: '2026-11-15' });
  });

  it('never holds without a bill (no tariff)', () => {
    const none = billCondition(rule('billAbove', 0), meter, undefined, period);
    expect(none.holds).toBe(false);
    expect(none.detail).toEqual({});
  });
});

describe('decreaseCondition', () => {
  const now = at('2026-11-27T12:00:00Z');

  it('holds from the reading below the one before it, in kWh', () => {
    const found = {
      meterId: 1,
      readAt: new Date('2026-11-26T08:15:00Z'),
      beforeMicro: 100_000 * KWH,
      afterMicro: 99_995 * KWH,
    };
    const condition = decreaseCondition(rule('registerDecrease', null), meter, found, now);
    expect(condition.holds).toBe(true);
    expect(condition.startedAt).toEqual(found.readAt);
    // 100,000,000,000 and 99,995,000,000 millionths: 100,000 and 99,995 kWh.
    expect(condition.detail).toEqual({ at: '2026-11-26T08:15:00.000Z', from: 100_000, to: 99_995 });
  });

  it('does not hold when no reading went down', () => {
    const condition = decreaseCondition(rule('registerDecrease', null), meter, undefined, now);
    expect(condition.holds).toBe(false);
    expect(condition.startedAt).toEqual(new Date(now));
    expect(condition.detail).toEqual({});
  });
});

describe('price above (a dynamic tariff, told ahead of time)', () => {
  // Half hours from 12:00Z at 0.10, 0.25, 0.40, NaN (no price), 0.45 EUR/kWh (millionths).
  const HALF = HOUR / 2;
  const from = at('2026-11-27T12:00:00Z');
  const prices = {
    start: [0, 1, 2, 3, 4].map((k) => from + k * HALF),
    end: [1, 2, 3, 4, 5].map((k) => from + k * HALF),
    price: [100_000, 250_000, 400_000, Number.NaN, 450_000],
    currency: 'EUR',
  };

  it('holds for the first coming interval above the amount, and says when and how much', () => {
    // At 12:10 the 12:00 interval is still going (0.10); 0.30 is first passed at 13:00 (0.40).
    const condition = priceCondition(rule('priceAbove', 0.3), meter, prices, at('2026-11-27T12:10:00Z'));
    expect(condition.holds).toBe(true);
    expect(condition.detail).toEqual({ at: '2026-11-27T13:00:00.000Z', amount: 0.4, currency: 'EUR' });
  });

  it('does not hold at the amount itself, for an interval past, or for one without a price', () => {
    // 0.45 only at 14:00; the threshold 0.45 is not passed (equal is not above).
    expect(priceCondition(rule('priceAbove', 0.45), meter, prices, from).holds).toBe(false);
    // After 13:30 only the 14:00 interval (0.45) is to come: above 0.42, not above 0.5.
    expect(priceCondition(rule('priceAbove', 0.42), meter, prices, at('2026-11-27T13:40:00Z')).holds).toBe(
      true,
    );
    expect(priceCondition(rule('priceAbove', 0.5), meter, prices, from).holds).toBe(false);
    // All past at 14:30.
    expect(priceCondition(rule('priceAbove', 0.01), meter, prices, at('2026-11-27T14:30:00Z')).holds).toBe(
      false,
    );
    // No tariff: never.
    expect(priceCondition(rule('priceAbove', 0.01), meter, undefined, from).holds).toBe(false);
  });

  it('looks no further ahead than the look-ahead', () => {
    // The 0.40 interval starts at 13:00 on the 27th: 36 hours after 01:00Z on the 26th, so not
    // within the next 36 hours then (it starts as they end), but within them from 01:30Z.
    const then = (time: string) => priceCondition(rule('priceAbove', 0.3), meter, prices, at(time)).holds;
    expect(then('2026-11-26T01:00:00Z')).toBe(false);
    expect(then('2026-11-26T01:30:00Z')).toBe(true);
  });
});

describe('peakCondition', () => {
  // November 2026 in Brussels (UTC+1): the month starts 2026-10-31T23:00Z. The month's peak before
  // the latest record: 0.8 kWh in the quarter hour from 18:00Z on the 10th = 0.8 ÷ 0.25 h = 3.2 kW.
  const peakRow = (lastKwh: number, lastMinutes = 15) => ({
    meterId: 7,
    lastStart: new Date('2026-11-26T17:00:00Z'),
    lastEnd: new Date(at('2026-11-26T17:00:00Z') + lastMinutes * 60_000),
    lastMicro: lastKwh * KWH,
    peakStart: new Date('2026-11-10T18:00:00Z'),
    peakEnd: new Date('2026-11-10T18:15:00Z'),
    peakMicro: 0.8 * KWH,
  });

  it('starts the month at local midnight of the 1st', () => {
    expect(monthStart(meter, at('2026-11-26T12:00:00Z')).toISOString()).toBe('2026-10-31T23:00:00.000Z');
  });

  it('holds when the latest interval is above the % of the month’s peak so far', () => {
    // 90 % of 3.2 kW = 2.88 kW. 0.73 kWh in a quarter hour = 2.92 kW: above. 0.72 kWh = 2.88 kW:
    // equal, not above.
    const above = peakCondition(rule('peakNear', 90), meter, peakRow(0.73));
    expect(above.holds).toBe(true);
    expect(above.detail).toEqual({
      at: '2026-11-26T17:00:00.000Z',
      power: 2.92,
      peak: 3.2,
      peakAt: '2026-11-10T18:00:00.000Z',
    });
    expect(above.startedAt.toISOString()).toBe('2026-11-26T17:00:00.000Z');
    expect(peakCondition(rule('peakNear', 90), meter, peakRow(0.72)).holds).toBe(false);
  });

  it('compares power, not energy: a 5-minute record of 0.25 kWh is 3 kW', () => {
    // 0.25 kWh ÷ (5/60) h = 3 kW, above 90 % × 3.2 = 2.88 kW though its energy is less than the
    // peak's 0.8 kWh.
    expect(peakCondition(rule('peakNear', 90), meter, peakRow(0.25, 5)).holds).toBe(true);
  });

  it('does not hold without an earlier interval in the month, nor without data', () => {
    const first = { ...peakRow(2), peakStart: null, peakEnd: null, peakMicro: null };
    expect(peakCondition(rule('peakNear', 50), meter, first)).toMatchObject({
      holds: false,
      detail: { power: 8 },
    });
    expect(peakCondition(rule('peakNear', 50), meter, undefined).holds).toBe(false);
  });
});
