import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Costing, CostingScratch, type PriceTimeline } from './cost.ts';
import { StepFlag, StepKind, Steps } from './steps.ts';

// The walk's one-pass pricing (priceSteps, with its running sums) against the step-by-step `add`
// and against BigInt sums worked out here, for any timeline and any walk.

const QUARTER = 15 * 60_000;

/** Segments of 15 minutes from 0, some without a price (NaN), some missing (holes). */
const timelineArbitrary = fc
  .array(
    fc.record({
      // 2: a hole of one quarter before the segment.
      skip: fc.nat({ max: 2 }),
      price: fc.oneof(
        { weight: 8, arbitrary: fc.integer({ min: -200_000, max: 900_000 }) },
        { weight: 1, arbitrary: fc.constant(Number.NaN) },
        { weight: 1, arbitrary: fc.integer({ min: 10_000_000, max: 90_000_000 }) },
      ),
      version: fc.nat({ max: 1 }),
    }),
    { minLength: 1, maxLength: 60 },
  )
  .map((segments): PriceTimeline => {
    const start: number[] = [];
    let at = 0;
    for (const segment of segments) {
      at += (segment.skip === 2 ? 1 : 0) * QUARTER;
      start.push(at);
      at += QUARTER;
    }
    return {
      start: Float64Array.from(start),
      end: Float64Array.from(start, (t) => t + QUARTER),
      price: Float64Array.from(segments, (segment) => segment.price),
      version: Int32Array.from(segments, (segment) => segment.version),
      versions: 2,
    };
  });

/** Steps in time order: whole quarters, halves, spans across segments, unknown energy. */
const stepsArbitrary = fc.array(
  fc.record({
    gap: fc.nat({ max: 2 }),
    quarters: fc.oneof(
      { weight: 6, arbitrary: fc.constant(1) },
      { weight: 1, arbitrary: fc.constant(0.5) },
      { weight: 2, arbitrary: fc.integer({ min: 2, max: 5 }) },
    ),
    energy: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 0, max: 2_000_000 }) },
      { weight: 1, arbitrary: fc.constant(Number.NaN) },
      // A large site's quarter hour: products beyond 2^53, where the running sums round.
      { weight: 1, arbitrary: fc.integer({ min: 1e11, max: 5e12 }) },
    ),
    estimated: fc.boolean(),
  }),
  { maxLength: 80 },
);

function walkOf(
  parts: ReadonlyArray<{ gap: number; quarters: number; energy: number; estimated: boolean }>,
): Steps {
  const steps = new Steps(parts.length + 1);
  let at = 0;
  for (const part of parts) {
    at += part.gap * QUARTER;
    const end = at + part.quarters * QUARTER;
    const flags = part.estimated ? StepFlag.estimated : 0;
    steps.push(StepKind.interval, at, end, part.energy, Number.NaN, 0, at, QUARTER, flags, 1);
    at = end;
  }
  return steps;
}

describe('Costing', () => {
  it('prices a walk in one pass exactly as step by step, running sums or not', () => {
    const scratch = new CostingScratch();
    fc.assert(
      fc.property(timelineArbitrary, stepsArbitrary, (timeline, parts) => {
        const steps = walkOf(parts);
        const onePass = new Costing(timeline, scratch);
        const costs = new Float64Array(steps.length);
        const unpriced = onePass.priceSteps(steps, costs);

        const byStep = new Costing(timeline);
        let unpricedByStep = 0;
        for (let i = 0; i < steps.length; i++) {
          const energy = steps.energy[i]!;
          const cost = Number.isNaN(energy)
            ? Number.NaN
            : byStep.add(steps.start[i]!, steps.end[i]!, energy, steps.flags[i]!);
          expect(costs[i]).toBe(cost);
          if (!Number.isNaN(energy) && energy !== 0 && Number.isNaN(cost)) unpricedByStep++;
        }
        expect(unpriced).toBe(unpricedByStep);
        const totals = onePass.totals();
        expect(totals).toEqual(byStep.totals());
        // Exact: each segment's energy (a sum of integers) times its price, in BigInt.
        const exact = [0n, 0n];
        byStep.segmentEnergy().forEach((energy, k) => {
          if (energy !== 0) exact[timeline.version[k]!]! += BigInt(energy) * BigInt(timeline.price[k]!);
        });
        expect(totals.byVersion).toEqual(exact);
        expect(onePass.bookedEnergy()).toBe([...byStep.segmentEnergy()].reduce((a, b) => a + b, 0));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps totals exact where the running sums would round (beyond 2^53)', () => {
    // Two quarters of 4,000.000001 kWh at 2,500.000003 per kWh (in millionths: 4,000,000,001 ×
    // 2,500,000,003): 10,000,000,014,500,000,003 each, in 10^-12 of the currency; far past 2^53,
    // where doubles are 2,048 apart.
    const timeline: PriceTimeline = {
      start: Float64Array.from([0, QUARTER]),
      end: Float64Array.from([QUARTER, 2 * QUARTER]),
      price: Float64Array.from([2_500_000_003, 2_500_000_003]),
      version: Int32Array.from([0, 0]),
      versions: 1,
    };
    const steps = walkOf([
      { gap: 0, quarters: 1, energy: 4_000_000_001, estimated: true },
      { gap: 0, quarters: 1, energy: 4_000_000_001, estimated: false },
    ]);
    const costing = new Costing(timeline);
    costing.priceSteps(steps, new Float64Array(2));
    const totals = costing.totals();
    expect(totals.byVersion).toEqual([20_000_000_029_000_000_006n]);
    expect(totals.estimated).toBe(10_000_000_014_500_000_003n);
  });

  it('starts each walk from zero with kept columns (CostingScratch)', () => {
    const timeline: PriceTimeline = {
      start: Float64Array.from([0]),
      end: Float64Array.from([QUARTER]),
      price: Float64Array.from([300_000]),
      version: Int32Array.from([0]),
      versions: 1,
    };
    const scratch = new CostingScratch();
    const steps = walkOf([{ gap: 0, quarters: 1, energy: 1_000_000, estimated: false }]);
    for (let walk = 0; walk < 3; walk++) {
      const costing = new Costing(timeline, scratch);
      costing.priceSteps(steps, new Float64Array(1));
      // 1 kWh at 0.30: 300,000,000,000 in 10^-12, the same each walk.
      expect(costing.totals().byVersion).toEqual([300_000_000_000n]);
      expect(costing.segmentEnergy()[0]).toBe(1_000_000);
    }
  });
});
