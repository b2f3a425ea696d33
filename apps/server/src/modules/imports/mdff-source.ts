import type { MdffSummary } from '@cm/contracts/import-jobs.ts';
import type { ValueUnit } from '@cm/contracts/import-mapping.ts';
import { because, type ImportReason } from '@cm/contracts/import-reasons.ts';
import { daysFromCivil, DAY_MS, MINUTE_MS } from '@cm/contracts/zoned-time.ts';
import type { Readable } from 'node:stream';
import type { MeterFacts } from '../directory/index.ts';
import { registerRangeMicro } from '../readings/index.ts';
import { energyMicro } from './delimited-values.ts';
import { checkInstant, ImportRefusal, type ParseContext, type ParsedItem } from './import-rows.ts';
import { printable } from './printable.ts';
import { readLines } from './read-lines.ts';

// AEMO's Meter Data File Format (MDFF, "Meter Data File Format Specification NEM12 & NEM13"):
// CSV records told apart by their first field. 100 header (NEM12 or NEM13), 200 NMI data details
// (NMI, suffix, unit, interval length), 300 a day of interval values with its quality, 400 the
// quality of a range of that day's intervals (a 300 of quality V), 500 B2B details, 900 end;
// NEM13: 250 a register's previous and current reads, 550 B2B details. Times are the market's:
// AEST, UTC+10 all year.

/** The market's time: Australian Eastern Standard Time, no daylight saving. */
const AEST_OFFSET_MS = 10 * 60 * MINUTE_MS;
export const AEST_NOTE = 'Times in AEST (UTC+10), no daylight saving, as the NEM meter data files are.';
const INTERVAL_LENGTHS = new Set([5, 15, 30]);
const UNITS = new Map<string, ValueUnit>([
  ['wh', 'Wh'],
  ['kwh', 'kWh'],
  ['mwh', 'MWh'],
]);
// Quality flags (the first letter of a QualityMethod): stored quality 0 actual, 1 estimated, 2 substituted.
const QUALITY = new Map([
  ['A', 0],
  ['E', 1],
  ['S', 2],
  ['F', 2],
]);
/** A 300 record of 288 five-minute values is a few kB; no MDFF line is anywhere near this. */
const MAX_LINE = 20_000;
const SHOWN_SERIES = 100;
const SHOWN_DAYS = 400;

/** How an MDFF file's NMIs go to meters. */
export interface MdffOptions {
  /** NMI, or NMI and suffix (`NMI/E1`), → meter number. */
  nmis?: Readonly<Record<string, string>> | undefined;
}

/** A 200 (NEM12) or 250 (NEM13) record's channel: who it is and where it goes. */
interface Series {
  nmi: string;
  suffix: string;
  unit: string;
  valueUnit: ValueUnit | undefined;
  minutes: number | null;
  /** 1 import, 2 export; undefined: not an energy channel. */
  channel: number | undefined;
  meterNumber: string | undefined;
  meter: MeterFacts | undefined;
}

interface Day300 {
  line: number;
  series: Series;
  fields: string[];
  /** Per interval (index from 0): the stored quality, null for no value (N), undefined: not said (V without a 400). */
  quality: Array<number | null | undefined>;
}

interface MdffRecord {
  line: number;
  fields: string[];
  tooLong: boolean;
}

/** The records of an MDFF file, a batch of lines at a time, split on commas (MDFF fields are never quoted). */
async function* records(input: Readable): AsyncGenerator<MdffRecord[]> {
  let line = 0;
  for await (const lines of readLines(input, MAX_LINE)) {
    const batch: MdffRecord[] = [];
    for (const text of lines) {
      line++;
      const trimmed = (line === 1 ? text.replace(/^\uFEFF/, '') : text).trim();
      if (trimmed === '') continue;
      const tooLong = trimmed.length > MAX_LINE;
      batch.push({ line, fields: tooLong ? [] : trimmed.split(',').map((field) => field.trim()), tooLong });
    }
    if (batch.length > 0) yield batch;
  }
}

/** The day of a YYYYMMDD date as ms of its AEST midnight, or undefined. */
function aestDay(text: string): number | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = daysFromCivil(year, month, day) * DAY_MS - AEST_OFFSET_MS;
  const check = new Date(ms + AEST_OFFSET_MS);
  return check.getUTCFullYear() === year && check.getUTCMonth() + 1 === month && check.getUTCDate() === day
    ? ms
    : undefined;
}

/** A YYYYMMDDhhmmss date and time (AEST) as an instant, or undefined. */
function aestInstant(text: string): number | undefined {
  const match = /^(\d{8})(\d{2})(\d{2})(\d{2})$/.exec(text);
  const day = match ? aestDay(match[1] ?? '') : undefined;
  if (!match || day === undefined) return undefined;
  const [hours, minutes, seconds] = [Number(match[2]), Number(match[3]), Number(match[4])];
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  return day + ((hours * 60 + minutes) * 60 + seconds) * 1000;
}

/** Which meter each NMI (and suffix) goes to: the nmis option, the meterNumber for a file of one NMI, or the meter named by the NMI. */
function meterResolver(context: ParseContext, options: MdffOptions, strict = true) {
  let onlyNmi: string | undefined;
  return (nmi: string, suffix: string): { meterNumber: string; meter: MeterFacts | undefined } => {
    const mapped = options.nmis?.[`${nmi}/${suffix}`] ?? options.nmis?.[nmi];
    if (mapped !== undefined) return { meterNumber: mapped, meter: context.meters.get(mapped) };
    if (context.meterNumber !== undefined) {
      onlyNmi ??= nmi;
      if (strict && onlyNmi !== nmi) {
        throw new ImportRefusal(
          `The file holds several NMIs (${printable(onlyNmi, 20)}, ${printable(nmi, 20)}), so one meterNumber cannot say where they go: map each NMI to a meter (the nmis option) or name the meters after the NMIs.`,
        );
      }
      return { meterNumber: context.meterNumber, meter: context.meters.get(context.meterNumber) };
    }
    return { meterNumber: nmi, meter: context.meters.get(nmi) };
  };
}

/** Reads a 200 (NEM12) or 250 (NEM13) record's channel; NEM13's direction is its own field. */
function seriesOf(
  fields: string[],
  version: 'NEM12' | 'NEM13',
  resolve: ReturnType<typeof meterResolver>,
): Series {
  const nmi = fields[1] ?? '';
  const suffix = fields[4] ?? '';
  const unit = (version === 'NEM12' ? fields[7] : fields[19]) ?? '';
  const minutes = version === 'NEM12' ? Number(fields[8]) : null;
  const flow = version === 'NEM12' ? suffix[0]?.toUpperCase() : fields[7]?.toUpperCase();
  // NEM12 suffixes: E… import, B… export energy. NEM13 direction indicator: I import, E export.
  const channel =
    version === 'NEM12'
      ? flow === 'E'
        ? 1
        : flow === 'B'
          ? 2
          : undefined
      : flow === 'I'
        ? 1
        : flow === 'E'
          ? 2
          : undefined;
  const valueUnit = UNITS.get(unit.toLowerCase());
  const isEnergy = channel !== undefined && valueUnit !== undefined;
  const { meterNumber, meter } = isEnergy
    ? resolve(nmi, suffix)
    : { meterNumber: undefined, meter: undefined };
  return {
    nmi,
    suffix,
    unit,
    valueUnit,
    minutes,
    channel: isEnergy ? channel : undefined,
    meterNumber,
    meter,
  };
}

/** The version a 100 record names, or a refusal. */
function headerVersion(fields: string[] | undefined): 'NEM12' | 'NEM13' {
  const version = fields?.[0] === '100' ? fields[1]?.toUpperCase() : undefined;
  if (version === 'NEM12' || version === 'NEM13') return version;
  throw new ImportRefusal(
    'An NEM12/NEM13 file begins with its 100 header record naming NEM12 or NEM13; this one does not.',
  );
}

const seriesName = (series: Series) =>
  `NMI ${printable(series.nmi, 20)} suffix ${printable(series.suffix, 4)}`;

/**
 * Reads a NEM12 or NEM13 file a batch of lines at a time. NEM12: every interval of a 300 record is
 * one interval reading of the NMI's meter (E suffixes import, B export), its quality from the 300
 * record or, for V, from the 400 records that follow; N (null) intervals are left missing.
 * NEM13: each 250 record's previous and current register reads, at their times, on the channel
 * of its direction. Other channels (reactive energy, demand) are passed over with a note.
 */
export async function* parseMdff(
  input: Readable,
  context: ParseContext,
  options: MdffOptions = {},
): AsyncGenerator<ParsedItem[]> {
  const resolve = meterResolver(context, options);
  let version: 'NEM12' | 'NEM13' | undefined;
  let series: Series | undefined;
  let pending: Day300 | undefined;
  let ended = false;
  const passedOver = new Map<string, number>();
  // NEM13: a current read is the next record's previous read; each instant is staged once.
  const registers = new Map<string, number>();
  const flush = (items: ParsedItem[]) => {
    if (pending) items.push(...intervalsOf(pending, context));
    pending = undefined;
  };
  for await (const batch of records(input)) {
    const items: ParsedItem[] = [];
    for (const { line, fields, tooLong } of batch) {
      const kind = fields[0] ?? '';
      if (version === undefined) {
        version = headerVersion(fields);
        context.kind = version === 'NEM12' ? 'interval' : 'register';
        continue;
      }
      if (tooLong) {
        items.push({ line, reason: because('lineTooLong', { max: MAX_LINE }) });
        continue;
      }
      if (kind !== '400') flush(items);
      if (ended) continue;
      if (kind === '900') ended = true;
      else if (kind === '500' || kind === '550') continue;
      else if (kind === '100') {
        throw new ImportRefusal(`line ${line}: a second 100 header record; an MDFF file has one.`);
      } else if (kind === '200' && version === 'NEM12') {
        series = seriesOf(fields, version, resolve);
        if (series.channel === undefined) continue;
        if (series.minutes === null || !INTERVAL_LENGTHS.has(series.minutes)) {
          throw new ImportRefusal(
            `line ${line}: ${seriesName(series)} has an interval length of "${printable(fields[8] ?? '', 10)}" minutes; NEM12 intervals are 5, 15 or 30 minutes.`,
          );
        }
      } else if (kind === '300' && version === 'NEM12') {
        if (!series) throw new ImportRefusal(`line ${line}: a 300 record before any 200 record.`);
        if (series.channel === undefined) {
          const key = `${seriesName(series)} (${printable(series.unit, 10) || 'no unit'})`;
          passedOver.set(key, (passedOver.get(key) ?? 0) + 1);
          continue;
        }
        const day = day300(line, fields, series);
        if ('reason' in day) items.push(day);
        else pending = day;
      } else if (kind === '400' && version === 'NEM12') {
        if (pending) {
          const problem = applyEvent(pending, fields);
          if (problem) items.push({ line, reason: problem });
        }
      } else if (kind === '250' && version === 'NEM13') {
        const register = seriesOf(fields, version, resolve);
        if (register.channel === undefined) {
          const key = `${seriesName(register)} (${printable(register.unit, 10) || 'no unit'})`;
          passedOver.set(key, (passedOver.get(key) ?? 0) + 1);
          continue;
        }
        items.push(...registerReads(line, fields, register, context, registers));
      } else {
        items.push({ line, reason: because('notAReading', { value: printable(fields.join(','), 40) }) });
      }
    }
    if (items.length > 0) yield items;
  }
  const rest: ParsedItem[] = [];
  flush(rest);
  if (rest.length > 0) yield rest;
  if (version === undefined) throw new ImportRefusal('The file is empty.');
  if (version === 'NEM12') context.notes.push(AEST_NOTE);
  for (const [what, count] of passedOver)
    context.notes.push(
      `${what} is neither import (E) nor export (B) energy in Wh, kWh or MWh: its ${count} ${count === 1 ? 'record was' : 'records were'} passed over.`,
    );
  if (!ended) context.notes.push('The file has no 900 end record: it may have been cut short.');
}

/** A 300 record read as far as its quality: the day it is, or the reason the whole line is refused. */
function day300(
  line: number,
  fields: string[],
  series: Series,
): Day300 | { line: number; reason: ImportReason } {
  const count = 1440 / (series.minutes ?? 30);
  if (fields.length < count + 3)
    return { line, reason: because('fieldCountAtLeast', { expected: count + 3, found: fields.length }) };
  if (aestDay(fields[1] ?? '') === undefined)
    return {
      line,
      reason: because('dateLayout', { value: printable(fields[1] ?? '', 20), layout: 'YYYYMMDD' }),
    };
  const method = fields[count + 2] ?? '';
  const flag = method[0]?.toUpperCase() ?? '';
  if (flag !== 'V' && flag !== 'N' && !QUALITY.has(flag))
    return { line, reason: because('notAReading', { value: `quality method ${printable(method, 10)}` }) };
  const quality = Array.from({ length: count }, () =>
    flag === 'V' ? undefined : flag === 'N' ? null : QUALITY.get(flag),
  );
  return { line, series, fields, quality };
}

/** A 400 record: the quality of intervals StartInterval to EndInterval (from 1) of the 300 before it. */
function applyEvent(day: Day300, fields: string[]): ImportReason | undefined {
  const start = Number(fields[1]);
  const end = Number(fields[2]);
  const method = fields[3] ?? '';
  const flag = method[0]?.toUpperCase() ?? '';
  const quality = flag === 'N' ? null : QUALITY.get(flag);
  if (
    !Number.isInteger(start) ||
    !Number.isInteger(end) ||
    start < 1 ||
    end < start ||
    end > day.quality.length
  )
    return because('notAReading', {
      value: `400 interval range ${printable(`${fields[1]}-${fields[2]}`, 20)}`,
    });
  if (quality === undefined)
    return because('notAReading', { value: `quality method ${printable(method, 10)}` });
  day.quality.fill(quality, start - 1, end);
  return undefined;
}

/** A record whose NMI names no meter (nor does the nmis option). */
const unknownMeter = (line: number, series: Series): ParsedItem => ({
  line,
  reason: because('unknownMeter', { meterNumber: printable(series.meterNumber ?? series.nmi, 64) }),
});

/** One reading of the file (an interval when it has an end, else a register), or why its time is refused. */
function reading(
  line: number,
  meter: MeterFacts,
  series: Series,
  context: ParseContext,
  value: { atMs: number; endMs: number | null; micro: number; quality: number },
): ParsedItem {
  const problem = checkInstant(meter, value.atMs, context.nowMs, value.endMs ?? value.atMs);
  if (problem) return { line, reason: problem };
  const kind = value.endMs === null ? 'register' : 'interval';
  return { row: { line, meterId: meter.id, channel: series.channel ?? 1, kind, ...value } };
}

/** The interval readings of a 300 record, each interval one row (or the reason it is refused). */
function intervalsOf(day: Day300, context: ParseContext): ParsedItem[] {
  const { series, fields, line } = day;
  const minutes = series.minutes ?? 30;
  const dayMs = aestDay(fields[1] ?? '') ?? 0;
  const meter = series.meter;
  if (!meter) return [unknownMeter(line, series)];
  const items: ParsedItem[] = [];
  for (let i = 0; i < day.quality.length; i++) {
    const quality = day.quality[i];
    if (quality === null) continue;
    if (quality === undefined) {
      items.push({
        line,
        reason: because('notAReading', { value: `interval ${i + 1}: quality V with no 400 record` }),
      });
      continue;
    }
    const text = fields[i + 2] ?? '';
    const micro = series.valueUnit ? energyMicro(text, '.', series.valueUnit, minutes) : undefined;
    if (micro === undefined) {
      items.push({
        line,
        reason: because('notANumber', { field: `interval ${i + 1}`, value: printable(text, 40) }),
      });
      continue;
    }
    if (micro < 0) {
      items.push({ line, reason: because('negative', { field: `interval ${i + 1}` }) });
      continue;
    }
    const atMs = dayMs + i * minutes * MINUTE_MS;
    items.push(
      reading(line, meter, series, context, { atMs, endMs: atMs + minutes * MINUTE_MS, micro, quality }),
    );
  }
  return items;
}

/** A 250 record's previous and current register reads (each instant once per meter and channel). */
function registerReads(
  line: number,
  fields: string[],
  series: Series,
  context: ParseContext,
  staged: Map<string, number>,
): ParsedItem[] {
  const meter = series.meter;
  if (!meter) return [unknownMeter(line, series)];
  const items: ParsedItem[] = [];
  // Previous read, its time and quality at 8, 9, 10; current read at 13, 14, 15.
  for (const at of [8, 13]) {
    const text = fields[at] ?? '';
    const when = fields[at + 1] ?? '';
    const flag = (fields[at + 2] ?? '')[0]?.toUpperCase() ?? '';
    const atMs = aestInstant(when);
    if (atMs === undefined) {
      items.push({
        line,
        reason: because('dateLayout', { value: printable(when, 20), layout: 'YYYYMMDDhhmmss' }),
      });
      continue;
    }
    const quality = QUALITY.get(flag);
    if (quality === undefined) {
      if (flag !== 'N')
        items.push({
          line,
          reason: because('notAReading', { value: `quality method ${printable(fields[at + 2] ?? '', 10)}` }),
        });
      continue;
    }
    const micro = series.valueUnit ? energyMicro(text, '.', series.valueUnit, 0) : undefined;
    if (micro === undefined) {
      items.push({
        line,
        reason: because('notANumber', { field: 'register read', value: printable(text, 40) }),
      });
      continue;
    }
    if (micro < 0) {
      items.push({ line, reason: because('negative', { field: 'register read' }) });
      continue;
    }
    if (micro >= registerRangeMicro(meter.registerDigits)) {
      items.push({
        line,
        reason: because('registerValueTooLarge', {
          value: micro / 1e6,
          meterNumber: meter.meterNumber,
          digits: meter.registerDigits,
        }),
      });
      continue;
    }
    const key = `${meter.id}:${series.channel}:${atMs}`;
    if (staged.get(key) === micro) continue;
    staged.set(key, micro);
    items.push(reading(line, meter, series, context, { atMs, endMs: null, micro, quality }));
  }
  return items;
}

type SummarySeries = MdffSummary['series'][number] & { dayCounts: Map<string, number>; reads: Set<string> };

/**
 * What an MDFF file holds per NMI and suffix, read whole without storing anything: the channel,
 * unit, interval, the meter it would go to, and values per day (the preview, before any meter is
 * chosen).
 */
export async function summarizeMdff(
  input: Readable,
  context: ParseContext,
  options: MdffOptions = {},
): Promise<MdffSummary> {
  // The import refuses one meterNumber for several NMIs; the summary shows them all the same.
  const resolve = meterResolver(context, options, false);
  const summary: MdffSummary = { version: 'NEM12', timeNote: AEST_NOTE, series: [] };
  const bySeries = new Map<string, SummarySeries>();
  let version: 'NEM12' | 'NEM13' | undefined;
  let current: SummarySeries | undefined;
  let last: { count: number; flag: string; date: string } | undefined;
  const add = (date: string, values: number) => {
    if (!current || values === 0) return;
    const day = `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`;
    current.values += values;
    current.dayCounts.set(day, (current.dayCounts.get(day) ?? 0) + values);
    current.from = current.from === null || day < current.from ? day : current.from;
    current.to = current.to === null || day > current.to ? day : current.to;
  };
  const open = (fields: string[], v: 'NEM12' | 'NEM13') => {
    const nmi = fields[1] ?? '';
    const suffix = fields[4] ?? '';
    const key = `${nmi}/${suffix}/${v === 'NEM13' ? (fields[7] ?? '') : ''}`;
    let found = bySeries.get(key);
    if (!found && bySeries.size < SHOWN_SERIES) {
      const series = seriesOf(fields, v, resolve);
      found = {
        nmi: printable(nmi, 20),
        suffix: printable(suffix, 4),
        channel: series.channel === 1 ? 'import' : series.channel === 2 ? 'export' : null,
        unit: printable(series.unit, 10),
        intervalMinutes: series.minutes,
        meterNumber: series.meterNumber ?? null,
        known: series.meter !== undefined,
        values: 0,
        from: null,
        to: null,
        days: [],
        dayCounts: new Map(),
        reads: new Set(),
      };
      bySeries.set(key, found);
    }
    current = found;
  };
  for await (const batch of records(input)) {
    for (const { fields } of batch) {
      const kind = fields[0];
      if (version === undefined) {
        version = headerVersion(fields);
        summary.version = version;
        continue;
      }
      if (kind === '400' && last?.flag === 'V') {
        const [start, end, method] = [Number(fields[1]), Number(fields[2]), fields[3]?.[0]?.toUpperCase()];
        if (method !== 'N' && Number.isInteger(start) && Number.isInteger(end) && end >= start)
          add(last.date, Math.min(end, last.count) - start + 1);
        continue;
      }
      last = undefined;
      if (kind === '200' && version === 'NEM12') open(fields, version);
      else if (kind === '300' && version === 'NEM12' && current) {
        const count = 1440 / (current.intervalMinutes ?? 30);
        const flag = (fields[count + 2] ?? '')[0]?.toUpperCase() ?? '';
        last = { count, flag, date: fields[1] ?? '' };
        if (flag !== 'V' && flag !== 'N') add(fields[1] ?? '', count);
      } else if (kind === '250' && version === 'NEM13') {
        open(fields, version);
        for (const stamp of [fields[9] ?? '', fields[14] ?? '']) {
          if (current?.reads.has(stamp)) continue;
          current?.reads.add(stamp);
          add(stamp.slice(0, 8), 1);
        }
      }
    }
  }
  if (version === undefined) throw new ImportRefusal('The file is empty.');
  summary.series = [...bySeries.values()].map(({ dayCounts, reads: _reads, ...series }) => ({
    ...series,
    days: [...dayCounts.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .slice(0, SHOWN_DAYS)
      .map(([date, values]) => ({ date, values })),
  }));
  return summary;
}
