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
  type CountColumns,
  type GapSpan,
  type Gathered,
  type StepFigures,
  type WeighedColumns,
  weighedColumns,
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
  const weighed = weighedColumns(needs, () => new Float64Array(capacity));
  const columns: ChannelColumns = {
    t: new Float64Array(capacity),
    from: new Float64Array(capacity),
    value: new Float64Array(capacity),
    consumption: new Float64Array(capacity),
    ...countColumns(capacity),
    cost: weighed.isPriced ? weighed.cost : undefined,
    emissions: weighed.isWeighed ? weighed.emissions : undefined,
    demand: new Float64Array(capacity).fill(Number.NaN),
  };
  const gaps: GapSpan[] = [];
  const points = pointSteps(steps, figures, columns, weighed, peaks, gaps);
  for (const key of ['t', 'from', 'cost', 'emissions', ...POINT_COLUMNS] as const) {
    const column = columns[key];
    if (column) columns[key] = column.subarray(0, points);
  }
  return { columns, gaps, periods: [] };
}

/** The main pass: a point per reading (a hot loop: accumulation.ts); returns how many. */
function pointSteps(
  steps: Steps,
  figures: StepFigures,
  columns: ChannelColumns,
  weighed: WeighedColumns,
  peaks: PeakTracker,
  gaps: GapSpan[],
): number {
  const { t, value, consumption, demand } = columns;
  const from = columns.from!;
  const counts: CountColumns = columns;
  const { cost, emissions, isPriced, isWeighed } = weighed;
  const missingColumn = counts.missing;
  let points = 0;
  let pendingMissing = 0;
  let lastPointT = Number.NaN;
  const { kind: kinds, start: starts, end: ends, missing: missings, flags: allFlags } = steps;
  const { power: powers, cost: costs, emitted } = figures;

  for (let i = 0; i < steps.length; i++) {
    const kind = kinds[i] as StepKind;
    const start = starts[i]!;
    const end = ends[i]!;
    const missing = missings[i]!;
    const flags = allFlags[i]!;
    const power = powers[i]!;
    if (!Number.isNaN(power)) peaks.interval(power, start, end, -1);
    if (isDemandOpen(kind)) peaks.unknown(0, -1);
    if (isGap(kind, missing)) gaps.push(gapOf(steps, i, costs[i]!, Number.NaN));
    if (kind === StepKind.unknown && steps.readings[i] === 0) {
      pendingMissing += missing;
      continue;
    }
    const pointT = kind === StepKind.first ? start : end;
    if (pointT === lastPointT) {
      // An exchange at one instant: the old meter's last reading and the new meter's first share
      // one point, which keeps the old meter's register (its interval ends there).
      countFlags(counts, points - 1, flags);
      continue;
    }
    const p = points++;
    const hasEnergy = kind === StepKind.interval || kind === StepKind.period;
    t[p] = pointT;
    from[p] = kind === StepKind.first ? Number.NaN : start;
    value[p] = steps.value[i]!;
    consumption[p] = hasEnergy ? steps.energy[i]! : Number.NaN;
    demand[p] = kind === StepKind.interval ? power : Number.NaN;
    if (isPriced) cost[p] = hasEnergy ? microOf(costs[i]!) : Number.NaN;
    if (isWeighed) emissions[p] = hasEnergy ? microOf(emitted[i]!) : Number.NaN;
    missingColumn[p] = missing + pendingMissing;
    pendingMissing = 0;
    countFlags(counts, p, flags);
    lastPointT = pointT;
  }

  return points;
}
