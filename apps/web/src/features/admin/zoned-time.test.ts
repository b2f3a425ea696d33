import { describe, expect, it } from 'vitest';
import { instantToZonedLocal, zonedLocalToIso } from './zoned-time.ts';

describe('zonedLocalToIso', () => {
  it("reads a wall-clock time in the location's zone, not the browser's", () => {
    expect(zonedLocalToIso('2026-01-15T08:00', 'Europe/Berlin')).toBe('2026-01-15T08:00:00+01:00');
    expect(zonedLocalToIso('2026-07-15T08:00', 'Europe/Berlin')).toBe('2026-07-15T08:00:00+02:00');
    expect(zonedLocalToIso('2026-07-15T08:00:30', 'America/New_York')).toBe('2026-07-15T08:00:30-04:00');
    expect(zonedLocalToIso('2026-07-15T08:00', 'Asia/Kolkata')).toBe('2026-07-15T08:00:00+05:30');
  });

  it('moves a time inside the spring-forward gap forward, and takes the earlier of a repeated hour', () => {
    expect(zonedLocalToIso('2026-03-29T02:30', 'Europe/Berlin')).toBe('2026-03-29T03:30:00+02:00');
    expect(zonedLocalToIso('2026-10-25T02:30', 'Europe/Berlin')).toBe('2026-10-25T02:30:00+02:00');
  });

  it('refuses text that is not a local date-time', () => {
    expect(zonedLocalToIso('', 'UTC')).toBeNull();
    expect(zonedLocalToIso('2026-03-29', 'UTC')).toBeNull();
    expect(zonedLocalToIso('2026-03-29T02:30Z', 'UTC')).toBeNull();
  });
});

describe('instantToZonedLocal', () => {
  it('shows an instant as the wall clock of the zone, to the minute', () => {
    const at = Date.parse('2026-10-25T00:30:45.500Z');
    expect(instantToZonedLocal(at, 'Europe/Berlin')).toBe('2026-10-25T02:30');
    expect(instantToZonedLocal(at + 3_600_000, 'Europe/Berlin')).toBe('2026-10-25T02:30');
    expect(instantToZonedLocal(at, 'UTC')).toBe('2026-10-25T00:30');
    expect(instantToZonedLocal(at, 'Asia/Kathmandu')).toBe('2026-10-25T06:15');
  });
});
