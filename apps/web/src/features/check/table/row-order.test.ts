import { describe, expect, it } from 'vitest';
import { buildRows, type ReadingRows } from '../model/reading-rows.ts';
import { sortRows, type RowOrder, type SortDirection, type SortKey } from './row-order.ts';
import { dailyReadings, rawReadings } from '@/test-support/check-fixtures.ts';

const pairs = (order: RowOrder) => Array.from(order.index, (i, k) => [order.block[k], i]);

/** The plain reference: objects sorted with the table's rule. */
function reference(blocks: { rows: ReadingRows }[], key: SortKey, direction: SortDirection): number[][] {
  const all = blocks.flatMap(({ rows }, b) =>
    rows.start.map((_, i) => {
      const value =
        key === 'time' ? rows.start[i] : key === 'consumption' ? rows.consumption[i] : rows.register[i];
      return { b, i, value: value ?? null };
    }),
  );
  const sign = direction === 'asc' ? 1 : -1;
  all.sort((x, y) => {
    if (x.value === null || y.value === null)
      return x.value === y.value ? x.b - y.b || x.i - y.i : x.value === null ? 1 : -1;
    return (x.value - y.value) * sign || x.b - y.b || x.i - y.i;
  });
  return all.map(({ b, i }) => [b, i]);
}

describe('sortRows', () => {
  const day = buildRows(
    rawReadings('2026-03-29T00:00:00Z', '2026-03-29T12:00:00Z', { skip: (i) => i % 7 === 3 }),
    'raw',
    0,
  );
  const other = buildRows(
    rawReadings('2026-03-29T00:00:00Z', '2026-03-29T12:00:00Z', { step: 0.5, skip: (i) => i % 5 === 2 }),
    'raw',
    0,
  );
  const days = buildRows(dailyReadings(), 'day', Date.parse('2026-03-30T22:00:00Z'));

  it('keeps rows built in time order as they are', () => {
    const order = sortRows([{ rows: day }], 'time', 'asc');
    expect(Array.from(order.index)).toEqual(day.start.map((_, i) => i));
  });

  it.each([
    ['time', 'asc'],
    ['time', 'desc'],
    ['consumption', 'asc'],
    ['consumption', 'desc'],
    ['register', 'asc'],
    ['register', 'desc'],
  ] as const)('sorts by %s %s like a plain sort, unknown values last', (key, direction) => {
    for (const blocks of [[{ rows: day }], [{ rows: day }, { rows: other }], [{ rows: days }]]) {
      const order = sortRows(blocks, key, direction);
      expect(pairs(order)).toEqual(reference(blocks, key, direction));
      const last = order.index.length - 1;
      const lastRows = blocks[order.block[last] ?? 0]?.rows;
      if (key === 'consumption' && lastRows?.consumption.includes(null))
        expect(lastRows.consumption[order.index[last] ?? 0]).toBeNull();
    }
  });
});
