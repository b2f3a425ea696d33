import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Granularity } from '@cm/contracts/check.ts';
import { DAY_MS, MINUTE_MS } from '@cm/contracts/zoned-time.ts';
import type { MeterSegment } from './channel.ts';
import { m4Bucket } from '../downsample.ts';
import { NO_INTERVALS, registers, runRange } from './test-segments.ts';
import { bucketEdges } from '../zoned-time.ts';

const ZONES = Intl.supportedValuesOf('timeZone');
const milli = (units: number | null) => Math.round((units ?? 0) * 1000);
const sumMilli = (values: readonly (number | null)[]) => values.reduce<number>((sum, v) => sum + milli(v), 0);

interface Step {
  skip: number;
  energy: number;
  isEstimated: boolean;
}

interface SegmentSpec {
  intervalMinutes: number;
  multiplier: number;
  registerDigits: number;
  startMilli: number;
  delayIntervals: number;
  steps: Step[];
}

const stepArb = (allowDecrease: boolean) =>
  fc.record({
    // Mostly regular readings, sometimes a gap of a few or many intervals.
    skip: fc.oneof(
      { weight: 20, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 200 }) },
    ),
    energy: allowDecrease
      ? fc.oneof(
          { weight: 30, arbitrary: fc.integer({ min: 0, max: 20_000 }) },
          { weight: 1, arbitrary: fc.integer({ min: -5000, max: -1 }) },
        )
      : fc.integer({ min: 0, max: 20_000 }),
    isEstimated: fc.oneof(
      { weight: 10, arbitrary: fc.constant(false) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
  });

const segmentArb = (allowDecrease: boolean) =>
  fc.record({
    intervalMinutes: fc.constantFrom(5, 15, 30, 60),
    multiplier: fc.constantFrom(1, 1, 2, 40, 600),
    registerDigits: fc.integer({ min: 3, max: 9 }),
    startMilli: fc.integer({ min: 0, max: 999_999 }),
    delayIntervals: fc.integer({ min: 0, max: 3 }),
    steps: fc.array(stepArb(allowDecrease), { minLength: 0, maxLength: 300 }),
  });

// Base instants in the months where clocks change, so DST days are common.
const baseArb = fc
  .record({
    year: fc.integer({ min: 2020, max: 2035 }),
    month: fc.constantFrom(0, 2, 3, 8, 9, 10),
    day: fc.integer({ min: 1, max: 28 }),
    minute: fc.integer({ min: 0, max: 24 * 60 - 1 }),
  })
  .map(({ year, month, day, minute }) => Date.UTC(year, month, day) + minute * MINUTE_MS);

function buildSegments(base: number, specs: SegmentSpec[]): MeterSegment[] {
  let cursor = base;
  return specs.map((spec, s) => {
    const intervalMs = spec.intervalMinutes * MINUTE_MS;
    const range = 10 ** spec.registerDigits * 1000;
    const t: number[] = [];
    const readings: number[] = [];
    const quality: number[] = [];
    let time = cursor + (s === 0 ? 0 : spec.delayIntervals * intervalMs);
    let register = spec.startMilli % range;
    t.push(time);
    readings.push(register);
    quality.push(0);
    for (const step of spec.steps) {
      time += intervalMs * (1 + step.skip);
      register = (((register + step.energy) % range) + range) % range;
      t.push(time);
      readings.push(register);
      quality.push(step.isEstimated ? 1 : 0);
    }
    cursor = time;
    return {
      meterNumber: `M-${s}`,
      multiplier: spec.multiplier,
      registerDigits: spec.registerDigits,
      intervalMs,
      registers: registers(t, readings, quality),
      intervals: NO_INTERVALS,
    };
  });
}

// An independent reading of the rules: intervals of each segment, the wrap rule, decreases unknown,
// more than 1.5 nominal intervals between two readings a gap.
function referenceIntervals(segments: MeterSegment[], fromMs: number, toMs: number) {
  const intervals: { start: number; end: number; energy: number; isGap: boolean }[] = [];
  let lastT = -Infinity;
  for (const segment of segments) {
    const range = 10 ** segment.registerDigits * 1000;
    const idx = Array.from(segment.registers.t, (_, i) => i).filter((i) => {
      const t = segment.registers.t[i] ?? 0;
      return t >= fromMs && t <= toMs && t >= lastT;
    });
    for (let j = 1; j < idx.length; j++) {
      const a = idx[j - 1] ?? 0;
      const b = idx[j] ?? 0;
      let diff = ((segment.registers.micro[b] ?? 0) - (segment.registers.micro[a] ?? 0)) / 1000;
      if (diff < -range / 2) diff += range;
      const start = segment.registers.t[a] ?? 0;
      const end = segment.registers.t[b] ?? 0;
      const isGap = end - start > 1.5 * segment.intervalMs;
      if (diff >= 0) intervals.push({ start, end, energy: diff * segment.multiplier, isGap });
    }
    if (idx.length > 0) lastT = segment.registers.t[idx[idx.length - 1] ?? 0] ?? lastT;
  }
  return intervals;
}

const scenario = (allowDecrease: boolean) =>
  fc.record({
    timeZone: fc.constantFrom(...ZONES),
    base: baseArb,
    specs: fc.array(segmentArb(allowDecrease), { minLength: 1, maxLength: 3 }),
    fromBefore: fc.integer({ min: -DAY_MS, max: 3 * DAY_MS }),
    toAfter: fc.integer({ min: -2 * DAY_MS, max: 3 * DAY_MS }),
  });

describe('computeReadings properties', () => {
  it('buckets of every unit, in any zone, add up exactly to the range total and to the intervals they hold', () => {
    fc.assert(
      fc.property(
        scenario(false),
        fc.constantFrom<Exclude<Granularity, 'raw'>>('hour', 'day', 'week', 'month'),
        ({ timeZone, base, specs, fromBefore, toAfter }, granularity) => {
          const segments = buildSegments(base, specs);
          const lastT = Array.from(segments.at(-1)?.registers.t ?? []).at(-1) ?? base;
          const fromMs = base - fromBefore;
          const toMs = Math.max(fromMs + MINUTE_MS, lastT + toAfter);
          const result = runRange(segments, fromMs, toMs, timeZone, granularity);
          const { series, totals } = result;

          const edges = bucketEdges(fromMs, toMs, granularity, timeZone);
          expect(totals.agrees).toBe(true);
          expect(milli(totals.consumption)).toBe(milli(totals.intervalSum) + milli(totals.gapConsumption));
          expect(series.missing.reduce((a, b) => a + b, 0)).toBe(totals.missingIntervals);
          expect(series.t).toEqual(edges.slice(0, -1));

          // Each bucket holds the energy of the intervals that start in it and of the gaps that lie
          // inside it; a gap across bucket edges is in no bucket, only in the gaps and the totals.
          const bucketOf = (ms: number) => edges.findLastIndex((edge) => edge <= ms);
          const expected = series.t.map(() => 0);
          let unplaced = 0;
          for (const { start, end, energy, isGap } of referenceIntervals(segments, fromMs, toMs)) {
            const k = bucketOf(start);
            if (isGap && end > (edges[k + 1] ?? Infinity)) unplaced += energy;
            else expected[k] = (expected[k] ?? 0) + energy;
          }
          expect(series.consumption.map(milli)).toEqual(expected);
          expect(sumMilli(series.consumption) + unplaced).toBe(milli(totals.consumption));
          const across = result.gaps.filter(
            (gap) => bucketOf(Date.parse(gap.from)) !== bucketOf(Date.parse(gap.to) - 1),
          );
          expect(sumMilli(across.map((gap) => gap.consumption))).toBe(unplaced);
          // Each gap names the bucket it lies inside (the one whose row holds it), none when it crosses an edge.
          for (const gap of result.gaps) {
            const k = bucketOf(Date.parse(gap.from));
            const isInside = k >= 0 && k < series.t.length && k === bucketOf(Date.parse(gap.to) - 1);
            expect(gap.bucket).toBe(isInside ? new Date(edges[k] ?? 0).toISOString() : null);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('totals are additive over a range split at a reading', () => {
    fc.assert(
      fc.property(scenario(true), fc.nat(), ({ timeZone, base, specs, fromBefore, toAfter }, pick) => {
        const segments = buildSegments(base, specs);
        const lastT = Array.from(segments.at(-1)?.registers.t ?? []).at(-1) ?? base;
        const a = base - fromBefore;
        const c = Math.max(a + MINUTE_MS, lastT + toAfter);
        const inside = segments.flatMap((s) => Array.from(s.registers.t)).filter((t) => t > a && t < c);
        fc.pre(inside.length > 0);
        const b = inside[pick % inside.length] ?? 0;
        const run = (fromMs: number, toMs: number) =>
          runRange(segments, fromMs, toMs, timeZone, 'raw').totals;
        const whole = run(a, c);
        const left = run(a, b);
        const right = run(b, c);
        expect(milli(whole.consumption)).toBe(milli(left.consumption) + milli(right.consumption));
        expect(milli(whole.intervalSum)).toBe(milli(left.intervalSum) + milli(right.intervalSum));
        expect(milli(whole.gapConsumption)).toBe(milli(left.gapConsumption) + milli(right.gapConsumption));
        expect(whole.missingIntervals).toBe(left.missingIntervals + right.missingIntervals);
      }),
      { numRuns: 200 },
    );
  });

  it('downsampling keeps every time bucket’s true minimum and maximum, in strictly increasing time', () => {
    fc.assert(
      fc.property(
        scenario(true),
        fc.integer({ min: 10, max: 200 }),
        ({ timeZone, base, specs }, maxPoints) => {
          const segments = buildSegments(base, specs);
          const lastT = Array.from(segments.at(-1)?.registers.t ?? []).at(-1) ?? base;
          const full = runRange(segments, base, lastT + 1, timeZone, 'raw').series;
          const result = runRange(segments, base, lastT + 1, timeZone, 'raw', { maxPoints });
          const kept = result.series;
          expect(result.downsampled).toBe(full.t.length > maxPoints);
          expect(kept.t.length).toBeLessThanOrEqual(
            Math.max(maxPoints, full.t.length > maxPoints ? 0 : full.t.length),
          );
          for (let i = 1; i < kept.t.length; i++)
            expect(kept.t[i]).toBeGreaterThan(kept.t[i - 1] ?? Infinity);
          expect(kept.missing.reduce((x, y) => x + y, 0)).toBe(full.missing.reduce((x, y) => x + y, 0));
          expect(kept.estimated.reduce((x, y) => x + y, 0)).toBe(full.estimated.reduce((x, y) => x + y, 0));
          if (!result.downsampled) return;

          // Every kept point is a real point, unchanged.
          const at = new Map(full.t.map((t, i) => [t, i]));
          kept.t.forEach((t, j) => {
            const i = at.get(t) ?? -1;
            expect(kept.value[j]).toBe(full.value[i]);
            expect(kept.consumption[j]).toBe(full.consumption[i]);
          });
          // Per equal-width time bucket: the same extremes as the full series.
          const t0 = full.t[0] ?? 0;
          const span = (full.t.at(-1) ?? 0) - t0 + 1;
          const buckets = Math.floor(maxPoints / 4);
          const extremes = (series: typeof full) => {
            const byBucket = new Map<number, [number, number]>();
            series.t.forEach((t, i) => {
              const v = series.consumption[i];
              if (v === null || v === undefined) return;
              const k = m4Bucket(t, t0, span, buckets);
              const [min, max] = byBucket.get(k) ?? [Infinity, -Infinity];
              byBucket.set(k, [Math.min(min, v), Math.max(max, v)]);
            });
            return byBucket;
          };
          expect(extremes(kept)).toEqual(extremes(full));
        },
      ),
      { numRuns: 200 },
    );
  });
});
