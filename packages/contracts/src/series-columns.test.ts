import { describe, expect, it } from 'vitest';
import { seriesWithCounts, spanStartColumn } from './series-columns.ts';

describe('series columns', () => {
  it('take a count column left out as zeros, in the series and its other channel', () => {
    const written = {
      t: [1, 2, 3],
      value: [10, 11, 12],
      consumption: [null, 1, 1],
      estimated: [0, 1, 0],
      other: { value: [null, null, null], consumption: [0, 0.5, 0], corrected: [0, 0, 2] },
    };
    expect(seriesWithCounts(written)).toEqual({
      ...written,
      missing: [0, 0, 0],
      estimated: [0, 1, 0],
      substituted: [0, 0, 0],
      corrected: [0, 0, 0],
      other: { ...written.other, missing: [0, 0, 0], estimated: [0, 0, 0], substituted: [0, 0, 0] },
    });
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
