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

import type { PriceTimeline } from './cost.ts';

/** Remembered walks' columns, in bytes, at most (about 25 walks of a year of 15-minute data, with their raw points). */
const KEPT_BYTES = 16 * 1024 * 1024;

export interface PricedWalk<T> {
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

/** Walks by key, the least recently used dropped beyond `maxBytes` of per-step columns. */
export class RememberedWalks {
  private readonly walks = new Map<string, PricedWalk<unknown>>();
  private bytes = 0;

  constructor(private readonly maxBytes = KEPT_BYTES) {}

  /**
   * The walk of the steps named `stepsKey` (`length` of them) over `timeline`, writing its
   * figures to `out`: remembered, else `walk`'s (then remembered).
   */
  priced<T>(stepsKey: string, timeline: PriceTimeline, length: number, out: Float64Array, walk: () => T): T {
    const key = `${timelineId(timeline)}|${stepsKey}`;
    const known = this.walks.get(key);
    if (known && known.figures.length === length) {
      this.walks.delete(key);
      this.walks.set(key, known);
      out.set(known.figures);
      return known.totals as T;
    }
    const totals = walk();
    this.remember(key, { figures: out.slice(0, length), totals });
    return totals;
  }

  /** The raw points' column of a remembered walk (kept by keepPoints), if any. */
  points(stepsKey: string, timeline: PriceTimeline): Float64Array | undefined {
    return this.walks.get(`${timelineId(timeline)}|${stepsKey}`)?.points;
  }

  /** Keeps the raw points' column of a remembered walk (answers share it: nobody may change it). */
  keepPoints(stepsKey: string, timeline: PriceTimeline, points: Float64Array): void {
    const walk = this.walks.get(`${timelineId(timeline)}|${stepsKey}`);
    if (!walk || walk.points) return;
    walk.points = points;
    this.bytes += points.byteLength;
    this.trim();
  }

  /** Bytes of per-step and per-point columns held now. */
  get size(): number {
    return this.bytes;
  }

  private remember(key: string, walk: PricedWalk<unknown>): void {
    this.forget(key);
    if (walk.figures.byteLength > this.maxBytes) return;
    this.walks.set(key, walk);
    this.bytes += walk.figures.byteLength;
    this.trim();
  }

  private trim(): void {
    for (const oldest of this.walks.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const walk = this.walks.get(key);
    if (!walk) return;
    this.walks.delete(key);
    this.bytes -= walk.figures.byteLength + (walk.points?.byteLength ?? 0);
  }
}
