// Benchmark of the readings engine: `npx tsx apps/server/src/modules/readings/engine.bench.ts`.
// Prints the median time of computeReadings over a year (35,040) and ten years (350,400) of
// 15-minute readings. It prints; it never asserts a time.

import type { Granularity } from '@cm/contracts/check.ts';
import { computeReadings, type MeterSegment } from './consumption.ts';
import { regularSegment } from './test-segments.ts';

const RUNS = 31;
// Enough calls for the JIT to optimise the pass before it is timed.
const WARM_UP = 10;
const START = Date.UTC(2024, 0, 1) - 3_600_000; // 2024-01-01 00:00 in Berlin
const TIME_ZONE = 'Europe/Berlin';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function time(segments: MeterSegment[], toMs: number, granularity: Granularity, maxPoints?: number): number {
  const options = {
    fromMs: START,
    toMs,
    timeZone: TIME_ZONE,
    granularity,
    nowMs: toMs,
    ...(maxPoints ? { maxPoints } : {}),
  };
  for (let run = 0; run < WARM_UP; run++) computeReadings(segments, options);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    computeReadings(segments, options);
    times.push(performance.now() - started);
  }
  return median(times);
}

const rows: Record<string, string>[] = [];
for (const count of [35_040, 350_400]) {
  // A realistic load profile with a few missing and estimated readings.
  const segment = regularSegment({
    startMs: START,
    count: count + 1,
    multiplier: 40,
    energyOf: (i) => 150 + ((i * 7919) % 400),
    skip: (i) => i % 5000 === 17,
    estimated: (i) => i % 3000 === 5,
  });
  const toMs = START + count * 15 * 60_000;
  rows.push({
    readings: count.toLocaleString('en-US'),
    'raw ms': time([segment], toMs, 'raw').toFixed(2),
    'raw maxPoints=2000 ms': time([segment], toMs, 'raw', 2000).toFixed(2),
    'hour ms': time([segment], toMs, 'hour').toFixed(2),
    'day ms': time([segment], toMs, 'day').toFixed(2),
    'month ms': time([segment], toMs, 'month').toFixed(2),
  });
}
console.log(`computeReadings, median of ${RUNS} runs, ${TIME_ZONE}, Node ${process.version}`);
console.table(rows);
