import { describe, expect, it } from 'vitest';
import { deviceHealth } from './device-health.ts';

const MINUTE = 60_000;
const now = Date.parse('2026-11-27T12:00:00Z');
const seen = (minutesAgo: number) => new Date(now - minutesAgo * MINUTE);

describe('deviceHealth', () => {
  it('calls a 15-minute meter late once two intervals passed without data (issue 34 low)', () => {
    // Heard from 30 minutes ago: the next reading may still be on its way.
    expect(deviceHealth('active', seen(30), now, 15)).toBe('ok');
    // 61 minutes: four readings missing, as the totals count them: not "Reporting".
    expect(deviceHealth('active', seen(61), now, 15)).toBe('late');
    expect(deviceHealth('active', seen(31), now, 15)).toBe('late');
  });

  it('gives an hourly meter two hours, and no meter less than half an hour', () => {
    expect(deviceHealth('active', seen(119), now, 60)).toBe('ok');
    expect(deviceHealth('active', seen(121), now, 60)).toBe('late');
    expect(deviceHealth('active', seen(29), now, 5)).toBe('ok');
    expect(deviceHealth('active', seen(31), now, 5)).toBe('late');
  });

  it('keeps a Cube or AccessPoint (no interval) at two hours, and silence at a day', () => {
    expect(deviceHealth('active', seen(119), now)).toBe('ok');
    expect(deviceHealth('active', seen(121), now)).toBe('late');
    expect(deviceHealth('active', seen(24 * 60 + 1), now, 15)).toBe('silent');
    expect(deviceHealth('active', null, now, 15)).toBe('unknown');
    expect(deviceHealth('removed', seen(1), now, 15)).toBe('removed');
  });
});
