import { describe, expect, it } from 'vitest';
import { readCellTime } from './delimited-values.ts';

const wall = (iso: string) => ({ wall: Date.parse(`${iso}Z`) });

describe('compact dates (yyyymmdd), as NEM12 and utility exports write them', () => {
  it('reads a date alone, a date with HHMM or HHMMSS, and a separate time column', () => {
    expect(readCellTime('20241004', undefined, 'yyyymmdd')).toEqual(wall('2024-10-04T00:00:00'));
    expect(readCellTime('202410041330', undefined, 'yyyymmdd')).toEqual(wall('2024-10-04T13:30:00'));
    expect(readCellTime('20241004133005', undefined, 'yyyymmdd')).toEqual(wall('2024-10-04T13:30:05'));
    expect(readCellTime('20241004', '13:30', 'yyyymmdd')).toEqual(wall('2024-10-04T13:30:00'));
  });

  it('refuses what is not a real compact date', () => {
    expect(readCellTime('2024-10-04', undefined, 'yyyymmdd')).toMatchObject({
      error: { code: 'dateLayout' },
    });
    expect(readCellTime('20240230', undefined, 'yyyymmdd')).toMatchObject({
      error: { code: 'notRealDateTime' },
    });
    expect(readCellTime('2024100413', undefined, 'yyyymmdd')).toMatchObject({
      error: { code: 'notTimeOfDay' },
    });
  });
});
