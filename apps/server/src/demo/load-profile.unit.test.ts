import { describe, expect, it } from 'vitest';
import { utcOffsetMs } from '@cm/contracts/zoned-time.ts';
import { intervalEnergyWh, STEP_MS, type LoadProfile } from './load-profile.ts';
import { createRng } from './prng.ts';

const START = Date.parse('2025-01-01T00:00:00Z');
const COUNT = 365 * 96 + 1;
const ZONE = 'Europe/Berlin';

/** Mean kW grouped by a key computed from the interval's local wall-clock time. */
function meanKwBy(profile: LoadProfile, key: (local: Date) => string | null) {
  const energy = intervalEnergyWh({
    profile,
    averageKw: 2,
    timeZone: ZONE,
    startMs: START,
    count: COUNT,
    rng: createRng(3, profile),
  });
  const groups = new Map<string, { sum: number; n: number }>();
  for (let i = 1; i < COUNT; i += 1) {
    const mid = START + i * STEP_MS - STEP_MS / 2;
    const k = key(new Date(mid + utcOffsetMs(mid, ZONE)));
    if (k === null) continue;
    const g = groups.get(k) ?? { sum: 0, n: 0 };
    g.sum += (energy[i] ?? 0) / 250;
    g.n += 1;
    groups.set(k, g);
  }
  return (k: string) => {
    const g = groups.get(k);
    return g ? g.sum / g.n : Number.NaN;
  };
}

describe('load profiles', () => {
  it('averages the requested load over a year', () => {
    const mean = meanKwBy('home', () => 'all');
    expect(mean('all')).toBeGreaterThan(1.9);
    expect(mean('all')).toBeLessThan(2.1);
  });

  it('has a low night and morning and evening peaks at home', () => {
    const byHour = meanKwBy('home', (d) => String(d.getUTCHours()));
    expect(byHour('7')).toBeGreaterThan(byHour('3') * 2);
    expect(byHour('19')).toBeGreaterThan(byHour('3') * 3);
    expect(byHour('19')).toBeGreaterThan(byHour('15'));
  });

  it('uses more in winter than in summer', () => {
    const byMonth = meanKwBy('home', (d) => String(d.getUTCMonth()));
    expect(byMonth('0')).toBeGreaterThan(byMonth('6') * 1.3);
  });

  it('runs an office on weekdays and idles it at weekends', () => {
    const byDayType = meanKwBy('office', (d) => {
      if (d.getUTCHours() < 10 || d.getUTCHours() >= 16) return null;
      return d.getUTCDay() === 0 || d.getUTCDay() === 6 ? 'weekend' : 'weekday';
    });
    expect(byDayType('weekday')).toBeGreaterThan(byDayType('weekend') * 3);
  });

  it('follows local time across DST: the evening peak stays at 19:00 local in summer', () => {
    const summer = meanKwBy('home', (d) => (d.getUTCMonth() === 6 ? String(d.getUTCHours()) : null));
    expect(summer('19')).toBeGreaterThan(summer('17'));
    expect(summer('19')).toBeGreaterThan(summer('22'));
  });
});
