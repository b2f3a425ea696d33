import { describe, expect, it } from 'vitest';
import { seriesAsRead, spanStartColumn, timeRuns, timesOf } from './series-columns.ts';

describe('series columns', () => {
  it('take a count column left out as zeros, in the series and its other channel', () => {
    const written = {
      tRuns: { start: [1], step: [1], count: [3] },
      value: [10, 11, 12],
      consumption: [null, 1, 1],
      estimated: [0, 1, 0],
      other: { value: [null, null, null], consumption: [0, 0.5, 0], corrected: [0, 0, 2] },
    };
    const { tRuns, ...columns } = written;
    expect(seriesAsRead(written)).toEqual({
      ...columns,
      t: timesOf(tRuns),
      missing: [0, 0, 0],
      estimated: [0, 1, 0],
      substituted: [0, 0, 0],
      corrected: [0, 0, 0],
      other: { ...written.other, missing: [0, 0, 0], estimated: [0, 0, 0], substituted: [0, 0, 0] },
    });
  });

  it('read times from runs of equal steps', () => {
    // Two runs 15 apart, a lone point, then a run of two.
    const runs = { start: [0, 90, 200, 300], step: [15, 15, 0, 50], count: [3, 2, 1, 2] };
    expect(timesOf(runs)).toEqual([0, 15, 30, 90, 105, 200, 300, 350]);
    expect(timesOf({ start: [], step: [], count: [] })).toEqual([]);
  });

  it('write times as runs of equal steps that read back the same', () => {
    // A run takes points while the step stays the one from its first point to its second.
    expect(timeRuns([0, 15, 30, 90, 105, 200, 300, 350])).toEqual({
      start: [0, 90, 200, 350],
      step: [15, 15, 100, 0],
      count: [3, 2, 2, 1],
    });
    const year = Array.from({ length: 35_041 }, (_, i) => 1_735_686_000_000 + i * 900_000);
    expect(timeRuns(year)).toEqual({ start: [year[0]], step: [900_000], count: [35_041] });
    // Local days across DST changes (23 and 25 hours) and months of different lengths.
    const days = [0, 24, 48, 71, 95, 120, 144].map((h) => h * 3_600_000);
    const months = [Date.UTC(2026, 0, 1), Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1), Date.UTC(2026, 3, 1)];
    for (const t of [days, months, [5], []]) expect(timesOf(timeRuns(t))).toEqual(t);
  });

  it('start each raw span at the previous point’s t except where listed', () => {
    // Readings every 15 minutes, a meter's first one at 0, a hole between 45 and 90.
    const t = [0, 15, 30, 45, 90, 105];
    expect(spanStartColumn({ t, spanStarts: { index: [0, 4], from: [null, 75] } })).toEqual([
      null,
      0,
      15,
      30,
      75,
      90,
    ]);
    expect(spanStartColumn({ t: [15, 30], spanStarts: { index: [0], from: [0] } })).toEqual([0, 15]);
    expect(spanStartColumn({ t: [] })).toEqual([]);
  });
});
