import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBytes } from './json-columns.ts';

const thousandths = fc.integer({ min: -1e15, max: 1e15 }).map((n) => n / 1000);
const anyNumber = fc.oneof(
  thousandths,
  fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.double(),
  fc.constantFrom(0, -0, 0.1, 0.001, -0.001, 1e21, 1e-7, 2 ** 53, 2 ** 53 + 2, 999999999999.999),
);
const numberColumn = fc.array(fc.oneof({ weight: 8, arbitrary: anyNumber }, fc.constant(null)), {
  minLength: 60,
  maxLength: 300,
});

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
  value: fc.oneof({ depthSize: 'small' }, leaf, numberColumn, tie('array'), tie('record')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  record: fc.dictionary(fc.string(), tie('value'), { maxKeys: 5 }),
})).value;

describe('jsonBytes', () => {
  it('writes exactly what JSON.stringify writes, numeric columns included', () => {
    fc.assert(
      fc.property(fc.record({ data: json, columns: fc.array(numberColumn, { maxLength: 3 }) }), (value) => {
        expect(jsonBytes(value).toString('utf8')).toBe(JSON.stringify(value));
      }),
      { numRuns: 400 },
    );
  });

  it('writes a year of readings as JSON.stringify does', () => {
    const start = Date.UTC(2024, 11, 31, 23);
    const t = Array.from({ length: 35_041 }, (_, i) => start + i * 900_000);
    const value = t.map((_, i) => (12_345_678 + i * 47) / 1000);
    const consumption = t.map((_, i) => (i === 0 ? null : ((i * 37) % 500) / 1000));
    const answer = { meters: [{ series: { t, value, consumption, missing: t.map(() => 0) } }] };
    expect(jsonBytes(answer).toString('utf8')).toBe(JSON.stringify(answer));
  });

  it('drops what JSON drops and keeps what toJSON says', () => {
    const value = {
      skipped: undefined,
      fn: () => 1,
      list: [undefined, () => 1, Number.NaN, -Infinity],
      at: new Date(Date.UTC(2026, 2, 29, 1)),
      column: Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? Number.NaN : -i / 8)),
      nested: Object.assign(Object.create(null) as object, { a: 1 }),
    };
    expect(jsonBytes(value).toString('utf8')).toBe(JSON.stringify(value));
  });
});
