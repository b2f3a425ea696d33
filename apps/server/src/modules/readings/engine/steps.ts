// The first pass of the readings engine: one meter's readings of one channel become "steps", the
// spans of time the data says something about. A step is what a bar, a table row or a gap is
// made from; the second pass (accumulate.ts) puts steps into points or calendar buckets.
//
// Energies are integers in millionths of the meter's unit (mWh for a kWh meter) after the CT
// multiplier; NaN where the data does not tell.

import { lowerBound, upperBound } from '@cm/contracts/sorted.ts';
import { isImplausibleDecrease, registerRangeMicro } from '../register-value.ts';

/** A register's readings: instants (ms, ascending), values in millionths before the multiplier. */
export interface RegisterColumns {
  t: ArrayLike<number>;
  micro: ArrayLike<number>;
  /** 0 actual, 1 estimated, 2 substituted. */
  quality: ArrayLike<number>;
  /** 1 where the value replaced an earlier one (a correction). */
  revised: ArrayLike<number>;
}

/** Interval energies as the source gave them: [start, end) ascending by start, energy in millionths after the multiplier. */
export interface IntervalColumns {
  start: ArrayLike<number>;
  end: ArrayLike<number>;
  micro: ArrayLike<number>;
  quality: ArrayLike<number>;
  revised: ArrayLike<number>;
}

/** Step kinds. */
export const StepKind = {
  /** A meter's first reading in the range: a register value, no energy. */
  first: 0,
  /** One nominal interval with its energy (two register readings, or an interval record). */
  interval: 1,
  /** A known energy over a long span: readings missing in between (register gap), energy known from the registers. */
  registerGap: 2,
  /** An interval record longer than the nominal interval (a billing period): energy known, nothing missing. */
  period: 3,
  /** Time of unknown energy: a hole between interval records, a register that went down, or the time between two meters. */
  unknown: 4,
} as const;
export type StepKind = (typeof StepKind)[keyof typeof StepKind];

/** Flags of a step (bits): the quality of its value, and whether it is an interval record. */
export const StepFlag = { estimated: 1, substituted: 2, corrected: 4, record: 8 } as const;

/**
 * Steps in time order, as columns. `value` is the register at the step's end (NaN when no
 * register reading falls there); `missing` the number of nominal intervals without data in it,
 * the first of which starts at `slotFrom`, the others `slotMs` (the nominal interval) apart.
 */
export class Steps {
  length = 0;
  kind = new Uint8Array(64);
  start = new Float64Array(64);
  end = new Float64Array(64);
  energy = new Float64Array(64);
  value = new Float64Array(64);
  missing = new Float64Array(64);
  slotFrom = new Float64Array(64);
  slotMs = new Float64Array(64);
  flags = new Uint8Array(64);
  /** Readings (register values or interval records) the step stands for. */
  readings = new Uint8Array(64);

  constructor(capacity = 64) {
    this.grow(Math.max(1, capacity));
  }

  /** Empties the steps for another walk, with room for `capacity` (columns are reused, not cleared). */
  reset(capacity: number): this {
    this.length = 0;
    if (capacity > this.kind.length) this.grow(capacity);
    return this;
  }

  push(
    kind: StepKind,
    start: number,
    end: number,
    energy: number,
    value: number,
    missing: number,
    slotFrom: number,
    slotMs: number,
    flags: number,
    readings: number,
  ): void {
    if (this.length === this.kind.length) this.grow(this.length * 2);
    const i = this.length++;
    this.kind[i] = kind;
    this.start[i] = start;
    this.end[i] = end;
    this.energy[i] = energy;
    this.value[i] = value;
    this.missing[i] = missing;
    this.slotFrom[i] = slotFrom;
    this.slotMs[i] = slotMs;
    this.flags[i] = flags;
    this.readings[i] = readings;
  }

  private grow(capacity: number): void {
    const grown = <T extends Float64Array | Uint8Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old.subarray(0, this.length));
      return next;
    };
    this.kind = grown(this.kind, (n) => new Uint8Array(n));
    this.start = grown(this.start, (n) => new Float64Array(n));
    this.end = grown(this.end, (n) => new Float64Array(n));
    this.energy = grown(this.energy, (n) => new Float64Array(n));
    this.value = grown(this.value, (n) => new Float64Array(n));
    this.missing = grown(this.missing, (n) => new Float64Array(n));
    this.slotFrom = grown(this.slotFrom, (n) => new Float64Array(n));
    this.slotMs = grown(this.slotMs, (n) => new Float64Array(n));
    this.flags = grown(this.flags, (n) => new Uint8Array(n));
    this.readings = grown(this.readings, (n) => new Uint8Array(n));
  }
}

/** Something in a meter's data a person should know about, found while stepping. */
export interface StepEvent {
  atMs: number;
  type: 'rollover' | 'registerDecrease';
  fromMicro: number;
  toMicro: number;
}

export const flagsOf = (quality: number, revised: number): number =>
  (quality === 1 ? StepFlag.estimated : quality === 2 ? StepFlag.substituted : 0) |
  (revised === 1 ? StepFlag.corrected : 0);

// More than one and a half nominal intervals between two register readings is a gap, so jitter in
// reading times is not reported as missing data.
export const GAP_FACTOR = 1.5;

export interface RegisterStepInput {
  registers: RegisterColumns;
  /** Readings with fromMs ≤ t ≤ toMs are used. */
  fromMs: number;
  toMs: number;
  multiplier: number;
  registerDigits: number;
  intervalMs: number;
}

/** What stepping a meter's registers found besides the steps. */
export interface RegisterWalk {
  /** Index range of the readings used. */
  begin: number;
  end: number;
  /** Register difference over the readings used (millionths after the multiplier, rollovers added). */
  difference: number;
  events: StepEvent[];
}

/**
 * Steps of a meter's register readings: the first reading, then one step between each pair of
 * consecutive readings. A fall of more than half the register range is a rollover (the register
 * passed its last digit); a smaller fall makes the step's energy unknown.
 */
export function registerSteps(input: RegisterStepInput, out: Steps): RegisterWalk {
  const { t } = input.registers;
  const range = registerRangeMicro(input.registerDigits);
  const begin = lowerBound(t, input.fromMs);
  const end = upperBound(t, input.toMs, begin);
  const events: StepEvent[] = [];
  const firstStep = out.length;
  if (pushRegisterSteps(input, begin, end, range, out, events) === 0)
    return { begin, end, difference: 0, events };
  // Each step's value is its reading's register: the first and last readings used are the first
  // and last steps'.
  const wraps = events.reduce((count, event) => count + (event.type === 'rollover' ? 1 : 0), 0);
  const registerDifference = out.value[out.length - 1]! - out.value[firstStep]! + wraps * range;
  return { begin, end, difference: registerDifference * input.multiplier, events };
}

/** registerSteps' loop over readings [begin, end), a function of its own (hot loops: accumulation.ts); returns the readings used. */
function pushRegisterSteps(
  input: RegisterStepInput,
  begin: number,
  end: number,
  range: number,
  out: Steps,
  events: StepEvent[],
): number {
  const { t, micro, quality, revised } = input.registers;
  const gapThreshold = GAP_FACTOR * input.intervalMs;
  let prevT = 0;
  let prevMicro = 0;
  let used = 0;
  for (let i = begin; i < end; i++) {
    const ti = t[i] ?? 0;
    const mi = micro[i] ?? 0;
    if (used > 0 && ti <= prevT) continue; // a duplicate or unordered instant: the first one counts
    const flags = flagsOf(quality[i] ?? 0, revised[i] ?? 0);
    if (used === 0) {
      out.push(StepKind.first, ti, ti, Number.NaN, mi, 0, ti, input.intervalMs, flags, 1);
    } else {
      const dt = ti - prevT;
      let diff = mi - prevMicro;
      if (diff < 0 && !isImplausibleDecrease(prevMicro, mi, input.registerDigits)) {
        diff += range;
        events.push({ atMs: ti, type: 'rollover', fromMicro: prevMicro, toMicro: mi });
      }
      const isGap = dt > gapThreshold;
      const missing = isGap ? Math.round(dt / input.intervalMs) - 1 : 0;
      // A reading at t closes [t − interval, t): the missing readings prevT + interval, … close the
      // intervals starting at prevT, …, which is where they are counted (as interval records are).
      const slotFrom = prevT;
      if (diff < 0) {
        events.push({ atMs: ti, type: 'registerDecrease', fromMicro: prevMicro, toMicro: mi });
        out.push(StepKind.unknown, prevT, ti, Number.NaN, mi, missing, slotFrom, input.intervalMs, flags, 1);
      } else {
        out.push(
          isGap ? StepKind.registerGap : StepKind.interval,
          prevT,
          ti,
          diff * input.multiplier,
          mi,
          missing,
          slotFrom,
          input.intervalMs,
          flags,
          1,
        );
      }
    }
    prevT = ti;
    prevMicro = mi;
    used++;
  }
  return used;
}

const DAY_MS = 24 * 3_600_000;

/**
 * The nominal interval of a meter's records in [begin, stop): the length most of them have, when
 * one length is held by more than half and it is a day or less (interval data, not billing
 * periods); else the interval the meter was set up with. A meter left at the 15-minute default
 * that receives half-hour records steps them as half hours, not as periods.
 */
export function recordCadence(
  intervals: IntervalColumns,
  begin: number,
  stop: number,
  configuredMs: number,
): number {
  // Majority vote (Boyer–Moore), then a count to confirm it: two passes, no allocation, each a
  // function of its own (hot loops: accumulation.ts).
  const candidate = majorityLength(intervals, begin, stop);
  if (!(candidate > 0 && candidate <= DAY_MS)) return configuredMs;
  return 2 * countLength(intervals, begin, stop, candidate) > stop - begin ? candidate : configuredMs;
}

/** The record length most records have, if any has a majority (else any length). */
function majorityLength({ start, end }: IntervalColumns, begin: number, stop: number): number {
  let candidate = 0;
  let votes = 0;
  for (let i = begin; i < stop; i++) {
    const length = (end[i] ?? 0) - (start[i] ?? 0);
    if (votes === 0) candidate = length;
    votes += length === candidate ? 1 : -1;
  }
  return candidate;
}

function countLength({ start, end }: IntervalColumns, begin: number, stop: number, length: number): number {
  let count = 0;
  for (let i = begin; i < stop; i++) if ((end[i] ?? 0) - (start[i] ?? 0) === length) count++;
  return count;
}

export interface IntervalStepInput {
  intervals: IntervalColumns;
  /** Registers of the same meter and channel, for the register column at each interval's end. */
  registers: RegisterColumns;
  /** Interval records starting in [fromMs, toMs) are used. */
  fromMs: number;
  toMs: number;
  /** Where data is expected from: time before the first record from here on is a hole. */
  expectFromMs: number;
  intervalMs: number;
}

/** What stepping a meter's interval records found besides the steps. */
export interface IntervalWalk {
  /** Sum of the energies used (millionths). */
  energy: number;
  /** End of the last record used, or `expectFromMs` when none. */
  coveredUntil: number;
  /** Records used. */
  count: number;
}

/**
 * Steps of a meter's interval records: a hole before a record (time no record covers, half a
 * nominal interval or more) is a step of unknown energy with its missing intervals; a record is
 * one interval, or a period when it is longer than one and a half nominal intervals. A record
 * that overlaps the one before it is bad data and is left out.
 */
export function intervalSteps(input: IntervalStepInput, out: Steps): IntervalWalk {
  const { start, end, micro, quality, revised } = input.intervals;
  const nominal = input.intervalMs;
  const begin = lowerBound(start, input.fromMs);
  const stop = lowerBound(start, input.toMs, begin);
  const registerT = input.registers.t;
  let cursor = input.expectFromMs;
  let energy = 0;
  let count = 0;
  let registerAt = 0;
  for (let i = begin; i < stop; i++) {
    const s = start[i] ?? 0;
    const e = end[i] ?? 0;
    if (s < cursor && count > 0) continue;
    const hole = s - cursor;
    if (hole >= nominal / 2) {
      const missing = Math.max(1, Math.round(hole / nominal));
      out.push(StepKind.unknown, cursor, s, Number.NaN, Number.NaN, missing, cursor, nominal, 0, 0);
    }
    registerAt = lowerBound(registerT, e, registerAt);
    const value =
      registerT[registerAt] === e ? (input.registers.micro[registerAt] ?? Number.NaN) : Number.NaN;
    const m = micro[i] ?? 0;
    out.push(
      e - s > GAP_FACTOR * nominal ? StepKind.period : StepKind.interval,
      s,
      e,
      m,
      value,
      0,
      s,
      nominal,
      flagsOf(quality[i] ?? 0, revised[i] ?? 0) | StepFlag.record,
      1,
    );
    energy += m;
    count++;
    cursor = e;
  }
  return { energy, coveredUntil: cursor, count };
}
