import { MINUTE_MS, utcOffsetMs } from '@cm/contracts/zoned-time.ts';
import type { Rng } from './prng.ts';

/** The shape of a day's consumption: a flat, a campus/office building, or a shop/restaurant. */
export type LoadProfile = 'home' | 'office' | 'retail';

/** Readings are 15 minutes apart; every interval's energy is drawn from the load in its middle. */
export const STEP_MS = 15 * MINUTE_MS;
const HOURS_PER_STEP = 0.25;

const gauss = (x: number, mu: number, sigma: number) => Math.exp(-0.5 * ((x - mu) / sigma) ** 2);
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
// 1 between `open` and `close` (hours), with ramps of about an hour: lights and HVAC do not switch at once.
const openHours = (h: number, open: number, close: number) =>
  sigmoid((h - open) / 0.35) * sigmoid((close - h) / 0.35);

/** Relative load (unnormalised) at local hour `h` (0–24, fractional) on local weekday `weekday` (0 Sunday … 6 Saturday). */
function rawShape(profile: LoadProfile, h: number, weekday: number): number {
  const isWeekend = weekday === 0 || weekday === 6;
  switch (profile) {
    case 'home':
      // Night low (fridge, standby), breakfast peak (later at weekends), a daytime hump
      // (higher at weekends, people at home), and the evening peak: cooking, lights, TV.
      return (
        0.3 +
        (isWeekend ? 0.7 * gauss(h, 9.5, 1.5) : 0.9 * gauss(h, 7.25, 0.9)) +
        (isWeekend ? 0.6 : 0.25) * gauss(h, 13, 2.5) +
        1.5 * gauss(h, 19.5, 1.8) +
        0.3 * gauss(h, 22.5, 1)
      );
    case 'office':
      // Base load at night and at weekends; on weekdays a start-up peak (HVAC pulls the building
      // to temperature) around 9, a working-day plateau, a smaller late-afternoon peak.
      if (isWeekend) return 0.25 + 0.1 * gauss(h, 12, 3);
      return 0.25 + 1.1 * openHours(h, 7.5, 18.5) + 0.35 * gauss(h, 9, 0.8) + 0.2 * gauss(h, 16.5, 1.2);
    case 'retail':
      // Refrigeration all night; Monday–Saturday opening hours with a morning preparation peak
      // and an evening peak (lights, kitchen); nearly closed on Sunday.
      if (weekday === 0) return 0.3 + 0.15 * openHours(h, 11, 17);
      return 0.3 + 0.3 * gauss(h, 8.5, 0.7) + 1 * openHours(h, 9, 20) + 0.4 * gauss(h, 18.5, 1.2);
  }
}

const weeklyMeans = new Map<LoadProfile, number>();
// Averages the raw shape over a week of 15-minute slots, so that a meter's `averageKw` is its real mean load.
function weeklyMean(profile: LoadProfile): number {
  const cached = weeklyMeans.get(profile);
  if (cached !== undefined) return cached;
  let sum = 0;
  let slots = 0;
  for (let weekday = 0; weekday < 7; weekday += 1) {
    for (let slot = 0; slot < 96; slot += 1) {
      sum += rawShape(profile, (slot + 0.5) / 4, weekday);
      slots += 1;
    }
  }
  const mean = sum / slots;
  weeklyMeans.set(profile, mean);
  return mean;
}

// Winter is higher everywhere in the demo (all its sites are in the northern hemisphere): heating,
// lighting; homes swing most, shops least.
const SEASONAL_AMPLITUDE: Record<LoadProfile, number> = { home: 0.3, office: 0.18, retail: 0.15 };
// 1970-01-15 is day 14: the seasonal peak sits in mid-January.
const SEASONAL_PEAK_DAY = 14;
const DAYS_PER_YEAR = 365.2425;

export interface LoadOptions {
  profile: LoadProfile;
  /** Mean load in kW over a year. */
  averageKw: number;
  timeZone: string;
  /** Instant of reading 0; reading i is at startMs + i × 15 min. */
  startMs: number;
  count: number;
  rng: Rng;
}

/**
 * Energy in Wh consumed in each interval (reading i − 1, reading i]; element 0 is 0. The load follows
 * the profile in the location's local time (so DST shifts the daily curve by an hour in UTC), a
 * seasonal curve, a day-to-day factor that drifts like the weather, per-interval noise, and for
 * homes the odd short spike (oven, kettle, washing machine).
 */
export function intervalEnergyWh(options: LoadOptions): Float64Array {
  const { profile, averageKw, timeZone, startMs, count, rng } = options;
  const energy = new Float64Array(count);
  const scale = averageKw / weeklyMean(profile);
  const amplitude = SEASONAL_AMPLITUDE[profile];
  let currentDay = Number.NaN;
  let dayFactor = 1;
  for (let i = 1; i < count; i += 1) {
    const midMs = startMs + i * STEP_MS - STEP_MS / 2;
    const localMinutes = Math.floor((midMs + utcOffsetMs(midMs, timeZone)) / MINUTE_MS);
    const day = Math.floor(localMinutes / 1440);
    if (day !== currentDay) {
      currentDay = day;
      // Weather drifts: each day leans on the one before.
      dayFactor = 0.6 * dayFactor + 0.4 * rng.between(0.8, 1.2);
    }
    const hour = (localMinutes - day * 1440) / 60;
    // Day 0 (1970-01-01) was a Thursday.
    const weekday = (((day + 4) % 7) + 7) % 7;
    const season = 1 + amplitude * Math.cos((2 * Math.PI * (day - SEASONAL_PEAK_DAY)) / DAYS_PER_YEAR);
    let kw = scale * rawShape(profile, hour, weekday) * season * dayFactor * rng.between(0.88, 1.12);
    if (profile === 'home' && rng.next() < 0.02) kw += averageKw * rng.between(0.5, 2.5);
    energy[i] = kw * HOURS_PER_STEP * 1000;
  }
  return energy;
}

/** A rooftop photovoltaic array: its peak power and where it stands (degrees; east and north positive). */
export interface SolarArray {
  kWp: number;
  latitude: number;
  longitude: number;
}

const DAY_OF_YEAR_MS = 86_400_000;
const RADIANS = Math.PI / 180;

/**
 * The energy (Wh) a rooftop array generates in each 15-minute interval: the sun's height from the
 * day of the year and the solar time (longitude, not the zone's clock), 75 % system efficiency at
 * full sun, and a cloudiness that drifts from day to day. Interval i is the one ending at reading i,
 * as `intervalEnergyWh`.
 */
export function solarEnergyWh(array: SolarArray, startMs: number, count: number, rng: Rng): Float64Array {
  const energy = new Float64Array(count);
  let currentDay = Number.NaN;
  let clearness = 0.8;
  for (let i = 1; i < count; i += 1) {
    const midMs = startMs + i * STEP_MS - STEP_MS / 2;
    const day = Math.floor(midMs / DAY_OF_YEAR_MS);
    if (day !== currentDay) {
      currentDay = day;
      clearness = Math.min(1, Math.max(0.15, 0.55 * clearness + 0.45 * rng.between(0.2, 1.1)));
    }
    const dayOfYear = day - Math.floor(day / 365.25) * 365.25;
    const declination = 23.44 * RADIANS * Math.sin((2 * Math.PI * (dayOfYear - 80)) / 365.25);
    const solarHour = ((midMs % DAY_OF_YEAR_MS) / 3_600_000 + array.longitude / 15 + 24) % 24;
    const hourAngle = (solarHour - 12) * 15 * RADIANS;
    const latitude = array.latitude * RADIANS;
    const sinElevation =
      Math.sin(latitude) * Math.sin(declination) +
      Math.cos(latitude) * Math.cos(declination) * Math.cos(hourAngle);
    if (sinElevation <= 0) continue;
    const kw = array.kWp * 0.75 * sinElevation ** 1.2 * clearness * rng.between(0.93, 1.07);
    energy[i] = kw * HOURS_PER_STEP * 1000;
  }
  return energy;
}
