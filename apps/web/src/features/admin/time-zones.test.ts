import { describe, expect, it } from 'vitest';
import { timeZoneOptions } from './time-zones.ts';

describe('time zones', () => {
  it('lists IANA zones with UTC, sorted, and keeps an unlisted current zone', () => {
    const zones = timeZoneOptions('Etc/Old-Alias');
    expect(zones).toContain('UTC');
    expect(zones).toContain('Europe/Berlin');
    expect(zones).toContain('Etc/Old-Alias');
    expect([...zones].sort((a, b) => a.localeCompare(b))).toEqual(zones);
  });
});
