import type { Reconciliation } from '@cm/contracts/import-jobs.ts';
import { localDateOf, localParts, MINUTE_MS, startOfLocal } from '@cm/contracts/zoned-time.ts';
import { registerAdvanceMicro } from '../readings/index.ts';

// Registers and interval records of one meter and channel tell the same energy twice: between two
// register reads, the register's advance (times the CT multiplier) should equal the energy of the
// intervals in between. What it does not is the unexplained rest: missing intervals, a wrong value,
// a register misread. Shown per period between consecutive reads (a day, for daily reads) and
// over the whole range.

const SHOWN_PERIODS = 400;
/** Interval records kept per file for this; a larger file is not reconciled (memory stays bounded). */
export const MAX_RECONCILED_INTERVALS = 2_000_000;

type Period = Reconciliation['periods'][number];

/** The register reads and interval records of one meter and channel, in millionths. */
export class ChannelBoth {
  readonly registers: Array<[atMs: number, micro: number]> = [];
  readonly intervals: Array<[startMs: number, endMs: number, micro: number]> = [];
}

const kwh = (micro: number) => micro / 1e6;
const iso = (ms: number) => new Date(ms).toISOString();

/** The local date when [from, to) is exactly one local day of `zone`, else null. */
function dayOf(fromMs: number, toMs: number, zone: string): string | null {
  const start = localParts(fromMs, zone);
  if (start.hour !== 0 || start.minute !== 0 || start.second !== 0 || start.millisecond !== 0) return null;
  const next = new Date(Date.UTC(start.year, start.month - 1, start.day + 1));
  const nextMidnight = startOfLocal(
    { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() },
    zone,
  );
  return nextMidnight === toMs ? localDateOf(fromMs, zone) : null;
}

/**
 * How the registers and intervals of one meter and channel agree; undefined unless both kinds
 * overlap (two register reads with interval records between them).
 */
export function reconcile(
  both: ChannelBoth,
  meter: { meterNumber: string; multiplier: number; registerDigits: number; timeZone: string },
  channel: number,
): Reconciliation | undefined {
  const registers = [...both.registers].sort((a, b) => a[0] - b[0]);
  if (registers.length < 2 || both.intervals.length === 0) return undefined;
  const intervals = [...both.intervals].sort((a, b) => a[0] - b[0]);
  const periods: Period[] = [];
  let k = 0;
  let total = { register: 0 as number | null, interval: 0, minutes: 0 };
  for (let i = 1; i < registers.length; i++) {
    const [fromMs, fromMicro] = registers[i - 1] ?? [0, 0];
    const [toMs, toMicro] = registers[i] ?? [0, 0];
    if (toMs === fromMs) continue;
    const advance = registerAdvanceMicro(fromMicro, toMicro, meter.registerDigits);
    const registerMicro = advance === null ? null : advance * meter.multiplier;
    let intervalMicro = 0;
    let minutes = 0;
    while (k < intervals.length && (intervals[k]?.[0] ?? 0) < fromMs) k++;
    for (let j = k; j < intervals.length; j++) {
      const [start, end, micro] = intervals[j] ?? [0, 0, 0];
      if (start >= toMs) break;
      if (end > toMs) continue;
      intervalMicro += micro;
      minutes += Math.round((end - start) / MINUTE_MS);
    }
    periods.push({
      from: iso(fromMs),
      to: iso(toMs),
      date: dayOf(fromMs, toMs, meter.timeZone),
      registerKwh: registerMicro === null ? null : kwh(registerMicro),
      intervalKwh: kwh(intervalMicro),
      intervalMinutes: minutes,
      restKwh: registerMicro === null ? null : kwh(registerMicro - intervalMicro),
    });
    total = {
      register: total.register === null || registerMicro === null ? null : total.register + registerMicro,
      interval: total.interval + intervalMicro,
      minutes: total.minutes + minutes,
    };
  }
  if (total.minutes === 0) return undefined;
  const first = registers[0]?.[0] ?? 0;
  const last = registers.at(-1)?.[0] ?? 0;
  return {
    meterNumber: meter.meterNumber,
    channel: channel === 2 ? 'export' : 'import',
    periods: periods.slice(0, SHOWN_PERIODS),
    morePeriods: Math.max(0, periods.length - SHOWN_PERIODS),
    total: {
      from: iso(first),
      to: iso(last),
      date: dayOf(first, last, meter.timeZone),
      registerKwh: total.register === null ? null : kwh(total.register),
      intervalKwh: kwh(total.interval),
      intervalMinutes: total.minutes,
      restKwh: total.register === null ? null : kwh(total.register - total.interval),
    },
  };
}
