import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packColumn, unpackColumn } from './packed-column.ts';

const f64 = (n: number) => new Float64Array(n);
const u8 = (n: number) => new Uint8Array(n);
const roundTrip = (values: number[]) => Array.from(unpackColumn(packColumn(values), f64));

describe('packed columns', () => {
  it('give back every column of numbers as it was, integers or not', () => {
    const safe = fc.integer({ min: -(2 ** 49), max: 2 ** 49 });
    const anyNumber = fc.oneof(
      safe,
      fc.double({ noNaN: true }),
      fc.constantFrom(-0, Number.MAX_SAFE_INTEGER, 2 ** 49 + 1, Infinity),
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(safe, anyNumber), { maxLength: 300 }), (values) => {
        const back = roundTrip(values);
        expect(back.length).toBe(values.length);
        back.forEach((value, i) => expect(Object.is(value, values[i])).toBe(true));
      }),
    );
  });

  it('give back series with runs of equal steps, and codes as bytes', () => {
    const runs = fc.array(
      fc.tuple(fc.integer({ min: -5_000, max: 5_000 }), fc.integer({ min: 1, max: 40 })),
      {
        maxLength: 30,
      },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 41 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        runs,
        (first, unit, steps) => {
          const values = [first];
          for (const [step, run] of steps)
            for (let k = 0; k < run; k++) values.push((values[values.length - 1] ?? 0) + step * unit);
          expect(roundTrip(values)).toEqual(values);
        },
      ),
    );
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 500 }), (codes) => {
        expect(Array.from(unpackColumn(packColumn(Uint8Array.from(codes)), u8))).toEqual(codes);
      }),
    );
  });

  it('store a month of 15-minute readings in a few bytes per reading', () => {
    const start = Date.UTC(2025, 0, 1);
    const times = Array.from({ length: 2976 }, (_, i) => start + i * 900_000);
    // Tag, count (2 bytes), first instant (6), divisor (3), one step with its run (1 + 2).
    expect(packColumn(times).byteLength).toBe(15);
    // A register counting whole watt-hours, 0 to 31 Wh a quarter hour: one byte a step (divisor
    // 1,000 µWh; the token is twice the zigzagged step, plus the run bit) — fewer where steps repeat.
    const register = [123_456_000_000];
    for (let i = 1; i < 2976; i++) register.push((register[i - 1] ?? 0) + ((i * 37) % 32) * 1_000);
    expect(packColumn(register).byteLength).toBeLessThanOrEqual(2976 + 16);
    // Tag, count (2), first (1), divisor (1), one step with its run (1 + 2).
    expect(packColumn(new Uint8Array(2976)).byteLength).toBe(8);
  });

  it('refuse bytes they did not write', () => {
    expect(() => unpackColumn(Uint8Array.of(9, 0), f64)).toThrow('unknown packed column tag 9');
  });
});
