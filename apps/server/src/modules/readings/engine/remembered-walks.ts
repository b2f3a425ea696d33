// A channel's walk priced over a timeline (its cost or its emissions per step, and their totals)
// depends on the steps and the timeline alone. Walking a year of 15-minute steps over a year of
// 15-minute prices, then over as many intensities, was most of what dynamic prices and carbon
// added to a request (`npm run bench:series`); a meter's view asks for the same walks again and
// again (reloads, the chart's detail switch: the steps do not depend on the granularity). So a
// walk is remembered when the caller names its readings (`readingsKey`: changes with every write
// to them and with every setting the steps come from) and the range lies far enough in the past
// that "now" does not shape the steps; with the timeline itself (timelines are immutable and
// remembered per tariff versions and series revisions: a new price or intensity is a new timeline).
// A raw answer's cost and emissions columns (one value per point, from the same steps) are kept
// beside their walk and shared by the next raw answers, which neither gather nor allocate them.

import { VersionedCache } from '../versioned-cache.ts';
import type { PriceTimeline } from './cost.ts';

/** Remembered walks' columns, in bytes, at most (about 25 walks of a year of 15-minute data, with their raw points). */
const KEPT_BYTES = 16 * 1024 * 1024;

interface PricedWalk<T> {
  /** Each step's figure (cost or emissions), as the walk wrote them. */
  figures: Float64Array;
  /** The walk's totals (never changed once made: shared by every answer that finds them). */
  totals: T;
  /** The raw answer's column of it (one value per point), once a raw answer gathered it; shared, never changed. */
  points?: Float64Array;
}

const timelineIds = new WeakMap<PriceTimeline, number>();
let nextTimelineId = 1;

function timelineId(timeline: PriceTimeline): number {
  let id = timelineIds.get(timeline);
  if (id === undefined) {
    id = nextTimelineId++;
    timelineIds.set(timeline, id);
  }
  return id;
}

/** Walks by key and timeline, the least recently used dropped beyond `maxBytes` of columns (VersionedCache). */
export class RememberedWalks {
  // A walk's version is its number of steps: a walk of other steps under the same key is not it.
  private readonly walks: VersionedCache<PricedWalk<unknown>>;

  constructor(maxBytes = KEPT_BYTES) {
    this.walks = new VersionedCache(maxBytes);
  }

  /**
   * The walk of the steps named `stepsKey` (`length` of them) over `timeline`, writing its
   * figures to `out`: remembered, else `walk`'s (then remembered).
   */
  priced<T>(stepsKey: string, timeline: PriceTimeline, length: number, out: Float64Array, walk: () => T): T {
    const key = keyOf(stepsKey, timeline);
    const known = this.walks.get(key, length);
    if (known) {
      out.set(known.figures);
      return known.totals as T;
    }
    const totals = walk();
    const figures = out.slice(0, length);
    this.walks.set(key, length, { figures, totals }, figures.byteLength);
    return totals;
  }

  /** The raw points' column of a remembered walk of `length` steps (kept by keepPoints), if any. */
  points(stepsKey: string, timeline: PriceTimeline, length: number): Float64Array | undefined {
    return this.walks.get(keyOf(stepsKey, timeline), length)?.points;
  }

  /** Keeps the raw points' column of a remembered walk (answers share it: nobody may change it). */
  keepPoints(stepsKey: string, timeline: PriceTimeline, length: number, points: Float64Array): void {
    const key = keyOf(stepsKey, timeline);
    const walk = this.walks.get(key, length);
    if (!walk || walk.points) return;
    this.walks.set(key, length, { ...walk, points }, walk.figures.byteLength + points.byteLength);
  }

  /** Bytes of per-step and per-point columns held now. */
  get size(): number {
    return this.walks.size;
  }
}

const keyOf = (stepsKey: string, timeline: PriceTimeline) => `${timelineId(timeline)}|${stepsKey}`;
