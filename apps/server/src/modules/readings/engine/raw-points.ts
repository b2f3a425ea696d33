// A point per reading: each step that ends in a reading sets its point's register, energy, cost,
// emissions and power; steps without a reading (missing records) pass their count to the next point.

import {
  POINT_COLUMNS,
  countColumns,
  countFlags,
  gapOf,
  isGap,
  microOf,
  type Accumulation,
  type ChannelColumns,
  type ChannelStep,
  type ColumnNeeds,
  type GapSpan,
} from './accumulation.ts';
import type { PeakTracker } from './demand.ts';
import { StepKind } from './steps.ts';

/** Points of at most `capacity` steps; `peaks` sees every interval's power (raw answers have no buckets). */
export function rawPoints(capacity: number, needs: ColumnNeeds, peaks: PeakTracker): Accumulation {
  const columns: ChannelColumns = {
    t: new Float64Array(capacity),
    from: new Float64Array(capacity),
    value: new Float64Array(capacity),
    consumption: new Float64Array(capacity),
    ...countColumns(capacity),
    ...(needs.prices ? { cost: new Float64Array(capacity) } : {}),
    ...(needs.carbon ? { emissions: new Float64Array(capacity) } : {}),
    demand: new Float64Array(capacity).fill(Number.NaN),
  };
  const gaps: GapSpan[] = [];
  let points = 0;
  let pendingMissing = 0;
  let lastPointT = Number.NaN;

  const add = (step: ChannelStep) => {
    const { kind, start, end, energy, flags } = step;
    if (!Number.isNaN(step.power)) peaks.interval(step.power, start, end, -1);
    if (step.isDemandOpen) peaks.unknown(0, -1);
    if (isGap(step)) gaps.push(gapOf(step, Number.NaN));
    if (kind === StepKind.unknown && step.readings === 0) {
      pendingMissing += step.missing;
      return;
    }
    const t = kind === StepKind.first ? start : end;
    if (t === lastPointT) {
      // An exchange at one instant: the old meter's last reading and the new meter's first share
      // one point, which keeps the old meter's register (its interval ends there).
      countFlags(columns, points - 1, flags);
      return;
    }
    const p = points++;
    const hasEnergy = kind === StepKind.interval || kind === StepKind.period;
    columns.t[p] = t;
    if (columns.from) columns.from[p] = kind === StepKind.first ? Number.NaN : start;
    columns.value[p] = step.value;
    columns.consumption[p] = hasEnergy ? energy : Number.NaN;
    columns.demand[p] = kind === StepKind.interval ? step.power : Number.NaN;
    if (columns.cost) columns.cost[p] = hasEnergy ? microOf(step.cost) : Number.NaN;
    if (columns.emissions) columns.emissions[p] = hasEnergy ? microOf(step.emitted) : Number.NaN;
    columns.missing[p] = step.missing + pendingMissing;
    pendingMissing = 0;
    countFlags(columns, p, flags);
    lastPointT = t;
  };

  const finish = () => {
    for (const key of ['t', 'from', 'cost', 'emissions', ...POINT_COLUMNS] as const) {
      const column = columns[key];
      if (column) columns[key] = column.subarray(0, points);
    }
  };

  return { columns, gaps, periods: [], add, finish };
}
