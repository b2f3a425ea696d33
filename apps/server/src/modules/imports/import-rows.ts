// What a file parser hands to the import: one staged reading, or a line refused and why.

import { because, reasonText, type ImportReason } from '@cm/contracts/import-reasons.ts';
import type { RejectedLine } from '@cm/contracts/admin.ts';
import type { MeterFacts } from '../directory/index.ts';
import type { StageLine } from '../readings/index.ts';

/** `register`: the value is the cumulative register; `interval`: the energy of an interval. */
export type ValueKind = 'register' | 'interval';

/**
 * One reading of the file. Registers: `atMs` the instant, `micro` the register in millionths of
 * the unit before the CT multiplier. Intervals: [atMs, endMs), `micro` the energy in millionths
 * after the multiplier (the meter's real energy, as utility files give it). Channel 1 import,
 * 2 export; quality 0 actual, 1 estimated, 2 substituted.
 */
export type StagedRow = StageLine & { kind: ValueKind };

export type ParsedItem = { row: StagedRow } | { line: number; reason: ImportReason };

/** The whole file is refused (wrong columns, not well-formed XML, a DTD): nothing is stored. */
export class ImportRefusal extends Error {}

/** What a parser needs to know about the import. */
export interface ParseContext {
  meters: ReadonlyMap<string, MeterFacts>;
  timeZone: string | undefined;
  /** ESPI files carry no meter number: every reading goes to this meter. */
  meterNumber: string | undefined;
  nowMs: number;
  /** Set by the parser once it knows (CSV header, ESPI ReadingType). */
  kind: ValueKind | undefined;
  /** What the report should say about how the file was read (a default the file left open). */
  notes: string[];
}

// A reading more than this far in the future is a clock or time-zone mistake.
const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;

/** Checks shared by every format: the meter was installed over the reading's time, which is not in the future. */
export function checkInstant(
  meter: MeterFacts,
  atMs: number,
  nowMs: number,
  endMs = atMs,
): ImportReason | undefined {
  if (endMs > nowMs + FUTURE_SLACK_MS) return because('inFuture');
  if (atMs < meter.installedAtMs) return because('notInstalledYet', { meterNumber: meter.meterNumber });
  if (meter.removedAtMs !== null && endMs > meter.removedAtMs)
    return because('alreadyRemoved', { meterNumber: meter.meterNumber });
  return undefined;
}

/** Stored quality from a file's quality column: 0/1/2 or actual/estimated/substituted (first letter will do). */
export function parseQuality(text: string): number | undefined {
  const value = text.trim().toLowerCase();
  if (value === '' || value === '0' || value === 'a' || value === 'actual' || value === 'measured') return 0;
  if (value === '1' || value === 'e' || value === 'estimated') return 1;
  if (value === '2' || value === 's' || value === 'substituted') return 2;
  return undefined;
}

/** Stored channel number from a file's channel column. */
export function parseChannel(text: string): number | undefined {
  const value = text.trim().toLowerCase();
  if (value === '' || value === 'import' || value === '1' || value === 'delivered') return 1;
  if (value === 'export' || value === '2' || value === 'received') return 2;
  return undefined;
}

/** A refused line as a report lists it: the English sentence, and the code and values the web words. */
export function rejectedLine(line: number, reason: ImportReason): RejectedLine {
  return { line, reason: reasonText(reason), code: reason.code, params: { ...reason.params } };
}

/** The value counted most often (the first of equals), or null when none is. */
export function mostCommon(counts: ReadonlyMap<number, number>): number | null {
  let best: number | null = null;
  let bestCount = 0;
  for (const [value, count] of counts) {
    if (count > bestCount) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}
