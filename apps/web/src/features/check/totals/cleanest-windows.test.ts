import { describe, expect, it } from 'vitest';
import { cleanestWindows } from './cleanest-windows.ts';

const H = 3_600_000;
const MIDNIGHT = Date.UTC(2026, 10, 28);

describe('cleanest windows (issue 36)', () => {
  it('joins consecutive cleanest intervals and averages their intensity', () => {
    // Eight hours, the cleanest quarter of them marked: hours 1, 2 and 6.
    const day = {
      region: 'DE',
      date: '2026-11-28',
      intervalMinutes: 60,
      t: Array.from({ length: 8 }, (_, k) => MIDNIGHT + k * H),
      intensity: [300, 120, 140, 310, null, 290, 100, 305],
      cleanest: [0, 1, 1, 0, 0, 0, 1, 0],
    };
    expect(cleanestWindows(day)).toEqual([
      { fromMs: MIDNIGHT + H, toMs: MIDNIGHT + 3 * H, average: 130 },
      { fromMs: MIDNIGHT + 6 * H, toMs: MIDNIGHT + 7 * H, average: 100 },
    ]);
  });

  it('closes a window at the end of the day, and has none without intensities', () => {
    const t = [MIDNIGHT, MIDNIGHT + H];
    expect(
      cleanestWindows({
        region: 'DE',
        date: 'd',
        intervalMinutes: 60,
        t,
        intensity: [200, 100],
        cleanest: [0, 1],
      }),
    ).toEqual([{ fromMs: MIDNIGHT + H, toMs: MIDNIGHT + 2 * H, average: 100 }]);
    expect(
      cleanestWindows({
        region: 'DE',
        date: 'd',
        intervalMinutes: 60,
        t,
        intensity: [null, null],
        cleanest: [0, 0],
      }),
    ).toEqual([]);
  });
});
