import type { Baseload } from '@cm/contracts/baseload.ts';
import type { MeterInfo, MeterReadings } from '@cm/contracts/check.ts';

/** Test data shaped like the API's answers (kept out of the app bundle: only tests import it). */
export function meterInfo(overrides: Partial<MeterInfo> = {}): MeterInfo {
  return {
    meterNumber: 'EM-10009',
    label: 'Reading room',
    mainSupply: false,
    deviceId: 22,
    type: 3,
    meterInd: 3,
    unit: 'kWh',
    multiplier: 1,
    registerDigits: 6,
    intervalMinutes: 15,
    status: 'active',
    priority: 3,
    priorityLabel: 'Medium',
    installedAt: '2023-10-01T02:00:00.000Z',
    removedAt: null,
    lastSeenAt: '2026-11-22T02:45:00.000Z',
    health: 'ok',
    location: {
      id: 2,
      publicName: 'Riverside Campus – Library',
      address: 'Uferstraße 5, Berlin',
      timeZone: 'Europe/Berlin',
      billingDay: null,
    },
    chain: { cube: null, accessPoint: null },
    channels: ['import'],
    lastReading: { at: '2026-11-22T02:45:00.000Z', value: 158747.051 },
    completeUpTo: '2026-11-22T02:45:00.000Z',
    ...overrides,
  };
}

const QUARTER = 15 * 60_000;

/**
 * Raw readings every 15 minutes from `fromIso` to `toIso` (both included), consumption
 * `step` kWh per interval; `skip` leaves readings out (a gap).
 */
export function rawReadings(
  fromIso: string,
  toIso: string,
  options: { step?: number; start?: number; skip?: (i: number) => boolean } = {},
): MeterReadings {
  const step = options.step ?? 0.25;
  const from = Date.parse(fromIso);
  const to = Date.parse(toIso);
  const t: number[] = [];
  const value: (number | null)[] = [];
  const consumption: (number | null)[] = [];
  const missing: number[] = [];
  const estimated: number[] = [];
  const gaps: MeterReadings['gaps'] = [];
  let register = options.start ?? 1000;
  let last = -1;
  let intervalSum = 0;
  let gapSum = 0;
  for (let i = 0, ms = from; ms <= to; i++, ms += QUARTER) {
    if (i > 0) register = Math.round((register + step) * 1000) / 1000;
    if (options.skip?.(i)) continue;
    const isFirst = last < 0;
    const lost = isFirst ? 0 : Math.round((ms - last) / QUARTER) - 1;
    const energy = isFirst ? null : Math.round(step * (lost + 1) * 1000) / 1000;
    t.push(ms);
    value.push(register);
    consumption.push(lost > 0 ? null : energy);
    missing.push(lost);
    estimated.push(0);
    if (lost > 0 && energy !== null) {
      gaps.push({
        channel: 'import',
        from: new Date(last).toISOString(),
        to: new Date(ms).toISOString(),
        missingIntervals: lost,
        consumption: energy,
        bucket: null,
      });
      gapSum += energy;
    } else if (energy !== null) intervalSum += energy;
    last = ms;
  }
  const start = value[0] ?? null;
  const end = value[value.length - 1] ?? null;
  const difference = start === null || end === null ? null : Math.round((end - start) * 1000) / 1000;
  return {
    meterInd: 3,
    meter: meterInfo(),
    meterNumbers: ['EM-10009'],
    channel: 'import',
    channels: ['import'],
    series: {
      t,
      value,
      consumption,
      missing,
      estimated,
      substituted: t.map(() => 0),
      corrected: t.map(() => 0),
    },
    totals: {
      consumption: difference,
      registerStart: start,
      registerEnd: end,
      registerDifference: difference,
      intervalSum: Math.round(intervalSum * 1000) / 1000,
      gapConsumption: Math.round(gapSum * 1000) / 1000,
      estimatedConsumption: 0,
      agrees: true,
      disagreement: 0,
      peak: null,
      demand: null,
      averagePerDay: difference,
      dataEnd: t.length > 0 ? new Date(t[t.length - 1] ?? 0).toISOString() : null,
      readings: t.length,
      missingIntervals: gaps.reduce((sum, gap) => sum + gap.missingIntervals, 0),
    },
    gaps,
    periods: [],
    events: [],
    downsampled: false,
    bill: null,
  };
}

/** Three Berlin days at `day` granularity (2026-03-28, the 23-hour 29th, the 30th) with a gap on the 29th. */
export function dailyReadings(): MeterReadings {
  return {
    meterInd: 1,
    meter: meterInfo(),
    meterNumbers: ['EM-10009'],
    channel: 'import',
    channels: ['import'],
    series: {
      // Berlin days 2026-03-28, 29 (23 h), 30.
      t: [
        Date.parse('2026-03-27T23:00:00Z'),
        Date.parse('2026-03-28T23:00:00Z'),
        Date.parse('2026-03-29T22:00:00Z'),
      ],
      value: [100, 120, 150],
      consumption: [20, 30, null],
      hours: [24, 23, 24],
      // Peaks: 3.2 kW from 18:15 on the 28th; 2.4 kW from 08:00 on the 29th, at least (its gap);
      // none on the 30th (nothing known).
      demand: [3.2, 2.4, null],
      demandAt: [Date.parse('2026-03-28T17:15:00Z'), Date.parse('2026-03-29T06:00:00Z'), null],
      demandAtLeast: [0, 1, 1],
      missing: [0, 24, 96],
      estimated: [0, 0, 0],
      substituted: [0, 0, 0],
      corrected: [0, 0, 0],
    },
    totals: {
      consumption: 50,
      registerStart: 80,
      registerEnd: 150,
      registerDifference: 50,
      intervalSum: 40,
      gapConsumption: 10,
      estimatedConsumption: 0,
      agrees: true,
      disagreement: 0,
      peak: null,
      demand: null,
      averagePerDay: 25,
      dataEnd: '2026-03-30T22:00:00.000Z',
      readings: 100,
      missingIntervals: 120,
    },
    gaps: [
      {
        channel: 'import',
        from: '2026-03-29T07:00:00.000Z',
        to: '2026-03-29T13:15:00.000Z',
        missingIntervals: 24,
        consumption: 10,
        // Inside the 29th, whose consumption holds it.
        bucket: '2026-03-28T23:00:00.000Z',
      },
    ],
    periods: [],
    events: [],
    downsampled: false,
    bill: null,
  };
}

/** 00:00–01:30 with readings starting late and stopping early: gaps open and close the range (and one inside). */
export function edgeGapReadings(): MeterReadings {
  const readings = rawReadings('2026-01-01T00:00:00Z', '2026-01-01T01:30:00Z', {
    skip: (i) => i < 2 || i === 4 || i > 5,
  });
  return {
    ...readings,
    gaps: [
      {
        channel: 'import',
        from: '2026-01-01T00:00:00.000Z',
        to: '2026-01-01T00:30:00.000Z',
        missingIntervals: 2,
        consumption: null,
        bucket: null,
      },
      ...readings.gaps,
      {
        channel: 'import',
        from: '2026-01-01T01:15:00.000Z',
        to: '2026-01-01T01:30:00.000Z',
        missingIntervals: 1,
        consumption: null,
        bucket: null,
      },
    ],
  };
}

/**
 * The same readings with an export channel beside the import: `exportStep` kWh exported in every
 * interval the import has (none where the import has none), and net = import − export.
 */
export function withExport(readings: MeterReadings, exportStep: number): MeterReadings {
  const { series, totals } = readings;
  const exported = series.consumption.map((value) => (value === null ? null : exportStep));
  const exportSum = Math.round(exported.reduce<number>((sum, value) => sum + (value ?? 0), 0) * 1000) / 1000;
  return {
    ...readings,
    channels: ['import', 'export'],
    series: {
      ...series,
      other: {
        value: series.value.map(() => null),
        consumption: exported,
        missing: series.missing,
        estimated: series.t.map(() => 0),
        substituted: series.t.map(() => 0),
        corrected: series.t.map(() => 0),
      },
      net: series.consumption.map((value, i) => {
        const out = exported[i] ?? null;
        return value === null || out === null ? null : Math.round((value - out) * 1000) / 1000;
      }),
    },
    totals: {
      ...totals,
      other: {
        ...totals,
        consumption: exportSum,
        registerStart: null,
        registerEnd: null,
        registerDifference: null,
        intervalSum: exportSum,
        gapConsumption: 0,
        agrees: false,
        peak: null,
        averagePerDay: null,
      },
      net: {
        consumption:
          totals.consumption === null ? null : Math.round((totals.consumption - exportSum) * 1000) / 1000,
      },
    },
  };
}

/** The server's answer for 15–21 January (baseload.routes.test.ts's meter). */
export const baseloadAnswer: Baseload = {
  meterNumber: 'EM-NIGHT',
  timeZone: 'Europe/Berlin',
  baseload: { kw: 0.25, nights: 14, from: '2026-01-07T23:00:00.000Z', to: '2026-01-21T05:00:00.000Z' },
  previousBaseload: { kw: 0.3, nights: 14, from: '2025-12-24T23:00:00.000Z', to: '2026-01-07T05:00:00.000Z' },
  night: {
    from: '2026-01-14T23:00:00.000Z',
    to: '2026-01-21T23:00:00.000Z',
    nightEnergy: 8.4,
    energy: 134.4,
    share: 0.0625,
  },
  previousNight: {
    from: '2026-01-07T23:00:00.000Z',
    to: '2026-01-14T23:00:00.000Z',
    nightEnergy: 12.6,
    energy: 138.6,
    share: 0.0909,
  },
};
