import { describe, expect, it } from 'vitest';
import { ChannelBoth, reconcile } from './reconcile.ts';

const meter = { meterNumber: 'M-1', multiplier: 1, registerDigits: 6, timeZone: 'Europe/Berlin' };
// Berlin midnights: 2024-03-30 00:00 is 2024-03-29T23:00Z; 2024-03-31 (23 hours, DST starts) 00:00
// is 2024-03-30T23:00Z; 2024-04-01 00:00 is 2024-03-31T22:00Z.
const D30 = Date.parse('2024-03-29T23:00:00Z');
const D31 = Date.parse('2024-03-30T23:00:00Z');
const A01 = Date.parse('2024-03-31T22:00:00Z');
const HOUR = 3_600_000;

function hourly(both: ChannelBoth, from: number, hours: number, micro: number, skip: number[] = []) {
  for (let h = 0; h < hours; h++)
    if (!skip.includes(h)) both.intervals.push([from + h * HOUR, from + (h + 1) * HOUR, micro]);
}

describe('reconciliation of registers and intervals', () => {
  it('per day between daily reads and over the range: the register advance, the intervals, the rest', () => {
    const both = new ChannelBoth();
    // Registers 100.000 at D30, 124.000 at D31, 147.500 at A01 (kWh).
    both.registers.push([D31, 124_000_000], [D30, 100_000_000], [A01, 147_500_000]);
    // 24 hours of 1 kWh on the 30th; the 23-hour 31st: 22 hours of 1 kWh (one hour missing).
    hourly(both, D30, 24, 1_000_000);
    hourly(both, D31, 23, 1_000_000, [5]);
    const result = reconcile(both, meter, 1);
    // 30th: 124 − 100 = 24 kWh against 24 × 1 = 24 kWh, rest 0. 31st: 147.5 − 124 = 23.5 kWh
    // against 22 kWh over 22 × 60 = 1320 minutes, rest 1.5. Range: 47.5 against 46, rest 1.5.
    expect(result?.periods).toEqual([
      {
        from: '2024-03-29T23:00:00.000Z',
        to: '2024-03-30T23:00:00.000Z',
        date: '2024-03-30',
        registerKwh: 24,
        intervalKwh: 24,
        intervalMinutes: 1440,
        restKwh: 0,
      },
      {
        from: '2024-03-30T23:00:00.000Z',
        to: '2024-03-31T22:00:00.000Z',
        date: '2024-03-31',
        registerKwh: 23.5,
        intervalKwh: 22,
        intervalMinutes: 1320,
        restKwh: 1.5,
      },
    ]);
    expect(result?.total).toMatchObject({ date: null, registerKwh: 47.5, intervalKwh: 46, restKwh: 1.5 });
    expect(result?.channel).toBe('import');
  });

  it('counts the multiplier and a rollover, leaves out intervals crossing a read, needs both kinds', () => {
    const both = new ChannelBoth();
    // A 4-digit register rolls over: 9990 → 0010 is 20 units, × multiplier 10 = 200 kWh.
    both.registers.push([D30, 9_990_000_000], [D30 + 3 * HOUR, 10_000_000]);
    hourly(both, D30, 2, 90_000_000);
    // Crosses the second read: not within the period.
    both.intervals.push([D30 + 2.5 * HOUR, D30 + 3.5 * HOUR, 5_000_000]);
    const result = reconcile(both, { ...meter, multiplier: 10, registerDigits: 4 }, 2);
    expect(result?.periods[0]).toMatchObject({
      registerKwh: 200,
      intervalKwh: 180,
      intervalMinutes: 120,
      restKwh: 20,
    });
    expect(result?.channel).toBe('export');
    const registersOnly = new ChannelBoth();
    registersOnly.registers.push([D30, 1], [D31, 2]);
    expect(reconcile(registersOnly, meter, 1)).toBeUndefined();
  });
});
