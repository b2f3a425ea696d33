// A point per reading: each step that ends in a reading sets its point's register, energy, cost,
// emissions and power; steps without a reading (missing records) pass their count to the next point.

import {
  POINT_COLUMNS,
  countColumns,
  countFlags,
  gapOf,
  isDemandOpen,
  isGap,
  microOf,
  type ChannelColumns,
  type ColumnNeeds,
  type GapSpan,
  type Gathered,
  type StepFigures,
} from './accumulation.ts';
import type { PeakTracker } from './demand.ts';
import { StepKind, type Steps } from './steps.ts';

/** The walk's points; `peaks` sees every interval's power (raw answers have no buckets). */
export function rawPoints(
  steps: Steps,
  figures: StepFigures,
  needs: ColumnNeeds,
  peaks: PeakTracker,
): Gathered {
  const capacity = steps.length;
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
  const { from, cost, emissions } = columns;
  const gaps: GapSpan[] = [];
  let points = 0;
  let pendingMissing = 0;
  let lastPointT = Number.NaN;

  for (let i = 0; i < steps.length; i++) {
    const kind = steps.kind[i] as StepKind;
    const start = steps.start[i]!;
    const end = steps.end[i]!;
    const missing = steps.missing[i]!;
    const flags = steps.flags[i]!;
    const power = figures.power[i]!;
    if (!Number.isNaN(power)) peaks.interval(power, start, end, -1);
    if (isDemandOpen(kind)) peaks.unknown(0, -1);
    if (isGap(kind, missing)) gaps.push(gapOf(steps, i, figures.cost[i]!, Number.NaN));
    if (kind === StepKind.unknown && steps.readings[i] === 0) {
      pendingMissing += missing;
      continue;
    }
    const t = kind === StepKind.first ? start : end;
    if (t === lastPointT) {
      // An exchange at one instant: the old meter's last reading and the new meter's first share
      // one point, which keeps the old meter's register (its interval ends there).
      countFlags(columns, points - 1, flags);
      continue;
    }
    const p = points++;
    const hasEnergy = kind === StepKind.interval || kind === StepKind.period;
    columns.t[p] = t;
    if (from) from[p] = kind === StepKind.first ? Number.NaN : start;
    columns.value[p] = steps.value[i]!;
    columns.consumption[p] = hasEnergy ? steps.energy[i]! : Number.NaN;
    columns.demand[p] = kind === StepKind.interval ? power : Number.NaN;
    if (cost) cost[p] = hasEnergy ? microOf(figures.cost[i]!) : Number.NaN;
    if (emissions) emissions[p] = hasEnergy ? microOf(figures.emitted[i]!) : Number.NaN;
    columns.missing[p] = missing + pendingMissing;
    pendingMissing = 0;
    countFlags(columns, p, flags);
    lastPointT = t;
  }

  for (const key of ['t', 'from', 'cost', 'emissions', ...POINT_COLUMNS] as const) {
    const column = columns[key];
    if (column) columns[key] = column.subarray(0, points);
  }
  return { columns, gaps, periods: [] };
}
