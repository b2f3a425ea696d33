// What a file parser hands to the import: one staged reading, or a line refused and why.

/** A meter as an import needs it. Instants are epoch ms. */
export interface MeterRef {
  id: number;
  meterNumber: string;
  multiplier: number;
  registerDigits: number;
  intervalMinutes: number;
  installedAtMs: number;
  removedAtMs: number | null;
}

/** `register`: the value is the cumulative register. `interval`: the value is the register's increase over the interval ending at readAt. */
export type ValueKind = 'register' | 'interval';

/** One reading of the file, in thousandths of the meter's unit, before the multiplier. */
export interface StagedRow {
  line: number;
  meterId: number;
  readAtMs: number;
  value: number;
  /** Start of the interval (interval rows only): where an opening register is placed for a meter with no earlier reading. */
  startAtMs: number | null;
  quality: number;
}

export type ParsedItem = { row: StagedRow } | { line: number; reason: string };

/** The whole file is refused (wrong columns, not well-formed XML, a DTD): nothing is stored. */
export class ImportRefusal extends Error {}

/** What a parser needs to know about the import. */
export interface ParseContext {
  meters: ReadonlyMap<string, MeterRef>;
  timeZone: string | undefined;
  /** ESPI files carry no meter number: every reading goes to this meter. */
  meterNumber: string | undefined;
  nowMs: number;
  /** Set by the parser once it knows (CSV header, ESPI ReadingType). */
  kind: ValueKind | undefined;
}

// A reading more than this far in the future is a clock or time-zone mistake.
const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;

/** Checks that shared by every format: the meter was installed at that instant, and the instant is not in the future. */
export function checkInstant(meter: MeterRef, readAtMs: number, nowMs: number): string | undefined {
  if (readAtMs > nowMs + FUTURE_SLACK_MS) return 'timestamp is in the future.';
  if (readAtMs < meter.installedAtMs) return `meter ${meter.meterNumber} was not installed yet at that time.`;
  if (meter.removedAtMs !== null && readAtMs > meter.removedAtMs)
    return `meter ${meter.meterNumber} was already removed at that time.`;
  return undefined;
}
