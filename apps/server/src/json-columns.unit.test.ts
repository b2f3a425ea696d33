import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBinaryColumns } from '@cm/contracts/binary-columns.ts';
import { binaryColumns } from './binary-columns.ts';
import { NumberColumn, MillionthsColumn, jsonBytes } from './json-columns.ts';

const millionths = fc.integer({ min: -8e15, max: 8e15 }).map((n) => n / 1e6);
const anyNumber = fc.oneof(
  millionths,
  fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.double(),
  fc.constantFrom(0, -0, 0.1, 0.001, -0.001, 1e21, 1e-7, 2 ** 53, 2 ** 53 + 2, 999999999999.999),
);
const anyMillionths = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: -8e15, max: 8e15 }) },
  { weight: 2, arbitrary: fc.integer({ min: -9e15, max: 9e15 }) },
  // Below one unit either side of zero (a quarter hour's energy, cost or emissions).
  { weight: 4, arbitrary: fc.integer({ min: -999_999, max: 999_999 }) },
  fc.double(),
  fc.constantFrom(0, -0, 7_999_999_999_999_999, 8e15, -8e15, 1e18, 0.5, 1, 100, 1_000_001, 12_227_100),
  fc.constantFrom(-1, 999_999, -999_999, 1_000_000, -1_000_000, 10, -10_000, 2 ** 31, -(2 ** 31)),
);
// Runs of zeros (flag columns) and of unknowns (an interval meter's registers) are written a block
// at a time: some columns are mostly zeros or nulls, in runs longer than one block (8,192 bytes).
const withZeroRuns = <T>(values: fc.Arbitrary<T>) =>
  fc.oneof(
    values,
    fc.constantFrom(0, -0, Number.NaN),
    fc.array(fc.constant(0), { minLength: 2, maxLength: 9_000 }),
    fc.array(fc.constant(Number.NaN), { minLength: 2, maxLength: 4_000 }),
  );
const numberColumn = fc
  .array(withZeroRuns(anyNumber), { minLength: 1, maxLength: 300 })
  .map((parts) => parts.flat())
  .map((values) => new NumberColumn(Float64Array.from(values)));
const millionthsColumn = fc
  .array(withZeroRuns(anyMillionths), { minLength: 1, maxLength: 300 })
  .map((parts) => parts.flat())
  .map((values) => new MillionthsColumn(Float64Array.from(values)));
const column = fc.oneof(numberColumn, millionthsColumn);

const leaf = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  anyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.date({ noInvalidDate: true }),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, column, tie('array'), tie('record')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  // Keys that name a column's place in the binary header, or an object's prototype, included.
  record: fc.dictionary(
    fc.oneof(fc.string(), fc.constantFrom('$col', '$$col', '$', '__proto__', 'constructor')),
    tie('value'),
    { maxKeys: 5 },
  ),
})).value;

/** A meter's year of 15-minute readings as the check service answers it: typed columns. */
function yearOfReadings() {
  const start = Date.UTC(2024, 11, 31, 23);
  const n = 35_041;
  const column = (of: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => of(i));
  const series = {
    t: new NumberColumn(column((i) => start + i * 900_000)),
    value: new MillionthsColumn(column((i) => 12_345_678_901 + i * 47_123)),
    consumption: new MillionthsColumn(column((i) => (i === 0 ? Number.NaN : (i * 37_001) % 500_000))),
    missing: new NumberColumn(new Float64Array(n)),
    // Zeros after a first value, longer than the block they are copied from.
    estimated: new NumberColumn(column((i) => (i === 0 ? 1 : i === 20_000 ? 2 : 0))),
    cost: new MillionthsColumn(column((i) => (i < 9_000 ? 0 : i))),
    // An interval meter's registers: unknown but for a few, in runs longer than their block.
    demand: new MillionthsColumn(column((i) => (i < 3 || i === 20_000 ? 5_000_000 + i : Number.NaN))),
  };
  return { meters: [{ series }] };
}

describe('jsonBytes', () => {
  it('writes exactly what JSON.stringify writes, numeric columns included', () => {
    fc.assert(
      fc.property(fc.record({ data: json, columns: fc.array(column, { maxLength: 3 }) }), (value) => {
        expect(jsonBytes(value).toString('utf8')).toBe(JSON.stringify(value));
      }),
      { numRuns: 400 },
    );
  });

  it('writes a year of readings as JSON.stringify does', () => {
    const answer = yearOfReadings();
    expect(jsonBytes(answer).toString('utf8')).toBe(JSON.stringify(answer));
  });

  it('drops what JSON drops and keeps what toJSON says', () => {
    const value = {
      skipped: undefined,
      fn: () => 1,
      list: [undefined, () => 1, Number.NaN, -Infinity],
      at: new Date(Date.UTC(2026, 2, 29, 1)),
      column: new NumberColumn(Float64Array.from([Number.NaN, Infinity, -0, -1 / 8, 1e21])),
      millionths: new MillionthsColumn(Float64Array.from([Number.NaN, -Infinity, -0, -1 / 8, 1e21])),
      nested: Object.assign(Object.create(null) as object, { a: 1 }),
    };
    expect(jsonBytes(value).toString('utf8')).toBe(JSON.stringify(value));
  });
});

describe('binaryColumns', () => {
  it('decodes to exactly the value of the JSON answer, whatever the columns hold', () => {
    fc.assert(
      fc.property(fc.record({ data: json, columns: fc.array(column, { maxLength: 3 }) }), (value) => {
        expect(decodeBinaryColumns(binaryColumns(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 400 },
    );
  });

  // The common power of ten is found by division (not `%`): one off a multiple of it, at the
  // largest wholes written as wholes, must still be told from the multiple.
  it('finds the power of ten the values share exactly, even one off a multiple of it', () => {
    const largest = Math.floor(Number.MAX_SAFE_INTEGER / 4);
    const value = {
      nearMultiples: new NumberColumn(Float64Array.from([2e15, 1e15 + 1, -1e15 - 1, 3e14])),
      largest: new NumberColumn(Float64Array.from([largest, largest - 1, 2e15, -largest])),
      thousands: new MillionthsColumn(Float64Array.from([3_000_047_000, 3_000_094_000, 999_999_999_000])),
      oneOffThousands: new MillionthsColumn(Float64Array.from([3_000_047_000, 3_000_094_001])),
    };
    expect(decodeBinaryColumns(binaryColumns(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });

  it("keeps keys that look like a column's place or a prototype", () => {
    const value = {
      ['__proto__']: { $col: 0 },
      answer: { $col: 1, $$col: [2], '': new NumberColumn(Float64Array.from([1, 2])) },
    };
    expect(decodeBinaryColumns(binaryColumns(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });

  it('holds a year of readings in a fraction of the JSON’s bytes', () => {
    const answer = yearOfReadings();
    const binary = binaryColumns(answer);
    const json = jsonBytes(answer);
    expect(decodeBinaryColumns(binary)).toEqual(JSON.parse(json.toString('utf8')));
    // Times 15 minutes apart are one varint byte each, mWh steps two or three: under a third.
    expect(binary.length).toBeLessThan(json.length / 3);
  });

  it('refuses what is not its form', () => {
    expect(() => decodeBinaryColumns(Buffer.from('{"meters":[]}'))).toThrow(
      /Not a Check Meter binary answer/,
    );
    const binary = binaryColumns(yearOfReadings());
    expect(() => decodeBinaryColumns(binary.subarray(0, binary.length - 1))).toThrow(/ends/);
    const later = Buffer.from(binary);
    later[3] = 2;
    expect(() => decodeBinaryColumns(later)).toThrow(/version 2/);
  });
});
