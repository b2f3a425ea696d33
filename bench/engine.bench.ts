// The readings engine alone: `npx tsx bench/engine.bench.ts`. Median time of computeReadings over
// a year (35,040) and ten years (350,400) of 15-minute data: a register meter, an interval-sourced
// meter, and an import + export meter. Prints; never asserts a time.

import type { Granularity } from '@cm/contracts/check.ts';
import { computeReadings, type ChannelSegments } from '../apps/server/src/modules/readings/index.ts';
import { intervalSegment, regularSegment } from '../apps/server/src/modules/readings/engine/test-segments.ts';

const RUNS = 31;
// Enough calls for the JIT to optimise the passes before they are timed.
const WARM_UP = 10;
const Q = 15 * 60_000;
const START = Date.UTC(2024, 0, 1) - 3_600_000; // 2024-01-01 00:00 in Berlin
const TIME_ZONE = 'Europe/Berlin';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function time(input: ChannelSegments, toMs: number, granularity: Granularity, maxPoints?: number): number {
  const options = {
    fromMs: START,
    toMs,
    timeZone: TIME_ZONE,
    granularity,
    nowMs: toMs,
    primary: 'import' as const,
    ...(maxPoints ? { maxPoints } : {}),
  };
  for (let run = 0; run < WARM_UP; run++) computeReadings(input, options);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    computeReadings(input, options);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Interval records every 15 minutes, a few missing and estimated. */
function records(count: number, energy: (i: number) => number) {
  const out: Array<[number, number, number, number]> = [];
  for (let i = 0; i < count; i++)
    if (i % 5000 !== 17) out.push([START + i * Q, START + (i + 1) * Q, energy(i), i % 3000 === 5 ? 1 : 0]);
  return out;
}

const rows: Record<string, string>[] = [];
for (const count of [35_040, 350_400]) {
  const toMs = START + count * Q;
  const register = regularSegment({
    startMs: START,
    count: count + 1,
    multiplier: 40,
    energyOf: (i) => 150 + ((i * 7919) % 400),
    skip: (i) => i % 5000 === 17,
    estimated: (i) => i % 3000 === 5,
  });
  const imported = intervalSegment(
    records(count, (i) => 150_000 + ((i * 7919) % 400_000)),
    { intervalMinutes: 15 },
  );
  const exported = intervalSegment(
    records(count, (i) => ((i * 31) % 96 < 40 ? 0 : (i * 104_729) % 300_000)),
    {
      intervalMinutes: 15,
    },
  );
  const cases: Array<[string, ChannelSegments]> = [
    ['register', { import: [register] }],
    ['intervals', { import: [imported] }],
    ['import + export', { import: [imported], export: [exported] }],
  ];
  for (const [name, input] of cases) {
    rows.push({
      meter: name,
      points: count.toLocaleString('en-US'),
      'raw ms': time(input, toMs, 'raw').toFixed(2),
      'raw maxPoints=2000 ms': time(input, toMs, 'raw', 2000).toFixed(2),
      'hour ms': time(input, toMs, 'hour').toFixed(2),
      'day ms': time(input, toMs, 'day').toFixed(2),
      'month ms': time(input, toMs, 'month').toFixed(2),
    });
  }
}
console.log(`computeReadings, median of ${RUNS} runs, ${TIME_ZONE}, Node ${process.version}`);
console.table(rows);
