import { because, type ImportReason } from '@cm/contracts/import-reasons.ts';
import type { Readable } from 'node:stream';
import { columnRefs, type ColumnRef, type DelimitedMapping } from '@cm/contracts/import-mapping.ts';
import { csvTextValue } from '@cm/contracts/csv.ts';
import {
  civilFromDays,
  DAY_MS,
  HOUR_MS,
  instantOfWall,
  isValidTimeZone,
  MINUTE_MS,
  instantsAtWall,
} from '@cm/contracts/zoned-time.ts';
import type { MeterFacts } from '../directory/index.ts';
import { registerRangeMicro } from '../readings/index.ts';
import { MAX_LINE, splitCsvLine } from './csv-source.ts';
import { energyMicro, readCellTime } from './delimited-values.ts';
import { checkInstant, ImportRefusal, type ParseContext, type ParsedItem } from './import-rows.ts';
import { readLines } from './read-lines.ts';

// A header is looked for among the first lines: metadata blocks (Green Button CSV) come before it.
const HEADER_SEARCH_LINES = 100;

const normal = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase();
const named = (ref: ColumnRef | undefined): ref is string => typeof ref === 'string';

/** Positions of the mapping's columns, from the header's names (or as given). */
function resolveColumns(mapping: DelimitedMapping, header: string[] | undefined) {
  const names = header?.map(normal);
  const at = (ref: ColumnRef | undefined): number => {
    if (ref === undefined) return -1;
    if (typeof ref === 'number') return ref;
    const index = names?.indexOf(normal(ref)) ?? -1;
    if (index < 0) throw new ImportRefusal(`The file has no column "${ref}".`);
    return index;
  };
  return {
    time: at(mapping.time.column),
    timeOfDay: at(mapping.time.timeColumn),
    end: at(mapping.time.endColumn),
    value: at(mapping.value.column),
    meter: 'column' in mapping.meter ? at(mapping.meter.column) : -1,
    channel: 'column' in mapping.channel ? at(mapping.channel.column) : -1,
    quality: at(mapping.quality?.column),
    only: at(mapping.only?.column),
  };
}
type Columns = ReturnType<typeof resolveColumns>;

const containsAny = (text: string, words: readonly string[]) => {
  const value = normal(text);
  return words.some((word) => value.includes(normal(word)));
};

/**
 * Resolves local times to instants. A time the clocks showed twice (the autumn hour) is resolved
 * by the file's own order where that order says which is which: in a file running forwards the
 * first occurrence is the earlier instant, in one running backwards (newest first, as ESB writes)
 * the later one. Where the order is not yet known, or the time occurs a third time, the line is
 * refused: guessing would store a reading an hour off.
 */
class WallClock {
  private readonly lastWall = new Map<string, number>();
  private readonly direction = new Map<string, 1 | -1>();
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly zone: string,
    private readonly notes: string[],
  ) {}

  resolve(key: string, wall: number, shown: string): { ms: number } | { reason: ImportReason } {
    const last = this.lastWall.get(key);
    if (last !== undefined && last !== wall && !this.direction.has(key))
      this.direction.set(key, wall > last ? 1 : -1);
    this.lastWall.set(key, wall);
    const instants = instantsAtWall(wall, this.zone);
    if (instants.length === 1) return { ms: instants[0] ?? 0 };
    if (instants.length === 0)
      return { reason: because('skippedTimeInFile', { time: shown, zone: this.zone }) };
    const occurrence = (this.seen.get(`${key} ${wall}`) ?? 0) + 1;
    this.seen.set(`${key} ${wall}`, occurrence);
    const direction = this.direction.get(key);
    if (direction === undefined || occurrence > 2) {
      return { reason: because('ambiguousTimeInFile', { time: shown, zone: this.zone }) };
    }
    const isEarlier = (occurrence === 1) === (direction === 1);
    if (occurrence === 1 && this.notes.length < 20)
      this.notes.push(
        `${shown} occurs twice in ${this.zone} (the clocks went back); read by the file's order, ${direction === 1 ? 'oldest' : 'newest'} first.`,
      );
    return { ms: (isEarlier ? instants[0] : instants[1]) ?? 0 };
  }
}

/** Meters a refusal names at most. */
const NAMED_METERS = 10;

/**
 * A meterNumber given to a file whose meter column names its meter: the file's one meter is the
 * meter given, whatever the file calls it. A second meter in the file is refused once the whole
 * file has been looked through (naming them), never put onto the one meter.
 */
class GivenMeter {
  private readonly named = new Set<string>();

  constructor(readonly meterNumber: string) {}

  /** The meter the line's readings go to. */
  resolve(fileName: string): string {
    if (this.named.size < 1000) this.named.add(fileName);
    return this.meterNumber;
  }

  get isRefused(): boolean {
    return this.named.size > 1;
  }

  refusal(): ImportRefusal {
    const names = [...this.named];
    const shown = names.slice(0, NAMED_METERS).join(', ');
    const more = names.length > NAMED_METERS ? `, and ${names.length - NAMED_METERS} more` : '';
    return new ImportRefusal(
      `This file names ${names.length} meters (${shown}${more}): meterNumber ${this.meterNumber.slice(0, 64)} would put all their readings on one meter. Leave meterNumber out to import each to the meter of its number.`,
    );
  }
}

/**
 * Reads a delimited file through a mapping (delimiter, decimal mark, header, date layout, units,
 * stamps, meter, channel, quality), a batch of lines at a time, never the whole file.
 */
export async function* parseDelimited(
  input: Readable,
  mapping: DelimitedMapping,
  context: ParseContext,
): AsyncGenerator<ParsedItem[]> {
  context.kind = mapping.value.kind;
  if (mapping.timeZone !== undefined && !isValidTimeZone(mapping.timeZone))
    throw new ImportRefusal(`timeZone "${mapping.timeZone}" is not an IANA time zone such as Europe/Dublin.`);
  const wanted = columnRefs(mapping).filter(named);
  let lineNumber = 0;
  let columns: Columns | undefined = mapping.header ? undefined : resolveColumns(mapping, undefined);
  const clocks = new Map<string, WallClock>();
  const clockFor = (zone: string) => {
    let clock = clocks.get(zone);
    if (!clock) clocks.set(zone, (clock = new WallClock(zone, context.notes)));
    return clock;
  };
  const given =
    'column' in mapping.meter && context.meterNumber ? new GivenMeter(context.meterNumber) : undefined;
  for await (const lines of readLines(input, MAX_LINE)) {
    const items: ParsedItem[] = [];
    for (const rawLine of lines) {
      lineNumber++;
      if (lineNumber <= mapping.skipLines) continue;
      if (given?.isRefused && columns) {
        // Refused already: the rest of the file is only looked through for the meters it names.
        const name = splitCsvLine(rawLine, mapping.delimiter)[columns.meter]?.trim();
        if (name) given.resolve(csvTextValue(name));
        continue;
      }
      if (!columns) {
        const fields = splitCsvLine(rawLine, mapping.delimiter).map(normal);
        if (wanted.every((name) => fields.includes(normal(name)))) columns = resolveColumns(mapping, fields);
        else if (lineNumber > mapping.skipLines + HEADER_SEARCH_LINES)
          throw new ImportRefusal(
            `No header with the columns ${wanted.map((name) => `"${name}"`).join(', ')} in the first ${HEADER_SEARCH_LINES} lines.`,
          );
        continue;
      }
      const item = parseRow(rawLine, lineNumber, mapping, columns, context, clockFor, given);
      if (Array.isArray(item)) items.push(...item);
      else if (item) items.push(item);
    }
    if (items.length > 0 && !given?.isRefused) yield items;
  }
  if (!columns) throw new ImportRefusal('The file is empty, or holds no header row.');
  if (given?.isRefused) throw given.refusal();
}

function parseRow(
  rawLine: string,
  line: number,
  mapping: DelimitedMapping,
  columns: Columns,
  context: ParseContext,
  clockFor: (zone: string) => WallClock,
  given: GivenMeter | undefined,
): ParsedItem | ParsedItem[] | undefined {
  if (rawLine.trim() === '') return undefined;
  if (rawLine.length > MAX_LINE) return { line, reason: because('lineTooLong', { max: MAX_LINE }) };
  const fields = splitCsvLine(rawLine, mapping.delimiter);
  const field = (index: number) => (index < 0 ? undefined : fields[index]?.trim());
  const needed = Math.max(...Object.values(columns));
  if (fields.length <= needed)
    return { line, reason: because('fieldCountAtLeast', { expected: needed + 1, found: fields.length }) };
  if (mapping.only && !containsAny(field(columns.only) ?? '', mapping.only.contains))
    return {
      line,
      reason: because('notAReading', { value: (field(columns.only) ?? '').slice(0, 60) }),
    };
  if (mapping.wide) return parseWideRow(fields, line, mapping, mapping.wide, columns, context, given);
  const valueText = field(columns.value) ?? '';
  // A missing value is a missing interval: its energy is unknown, and it is no reading.
  if (isMissing(mapping, valueText)) return undefined;
  const facts = rowFacts(field, line, mapping, columns, context, given);
  if ('reason' in facts) return facts;
  const { meter, channel, quality, zone } = facts;
  const clockKey = `${meter.id} ${channel}`;
  const time = instantOf(
    field(columns.time) ?? '',
    field(columns.timeOfDay),
    mapping,
    zone,
    clockFor,
    `${clockKey} t`,
  );
  if ('reason' in time) return { line, reason: time.reason };
  const minutes = intervalMinutes(mapping, meter, columns, field, zone, clockFor, clockKey, time.ms);
  if (typeof minutes === 'object') return { line, reason: minutes.reason };

  const micro = energyMicro(valueText, mapping.decimal, mapping.value.unit, minutes);
  if (micro === undefined)
    return { line, reason: because('notANumber', { field: 'value', value: valueText.slice(0, 40) }) };
  if (micro < 0) return { line, reason: because('negativeExport') };
  const isInterval = mapping.value.kind === 'interval';
  if (!isInterval && micro >= registerRangeMicro(meter.registerDigits))
    return {
      line,
      reason: because('registerTooLargeMapped', {
        meterNumber: meter.meterNumber,
        digits: meter.registerDigits,
      }),
    };
  const startMs = isInterval && mapping.time.stamp === 'end' ? time.ms - minutes * MINUTE_MS : time.ms;
  const endMs = isInterval ? startMs + minutes * MINUTE_MS : null;
  const problem = checkInstant(meter, startMs, context.nowMs, endMs ?? startMs);
  if (problem) return { line, reason: problem };
  return {
    row: {
      line,
      meterId: meter.id,
      channel,
      kind: isInterval ? 'interval' : 'register',
      atMs: startMs,
      endMs,
      micro,
      quality,
    },
  };
}

const isMissing = (mapping: DelimitedMapping, text: string) =>
  text === '' || mapping.missingValues.some((word) => normal(word) === normal(text));

/** A row's meter, channel, quality and time zone, or why it is refused. */
function rowFacts(
  field: (index: number) => string | undefined,
  line: number,
  mapping: DelimitedMapping,
  columns: Columns,
  context: ParseContext,
  given: GivenMeter | undefined,
):
  | { meter: MeterFacts; channel: number; quality: number; zone: string }
  | { line: number; reason: ImportReason } {
  const fileMeter = 'fixed' in mapping.meter ? mapping.meter.fixed : csvTextValue(field(columns.meter) ?? '');
  const meterNumber = given ? given.resolve(fileMeter) : fileMeter;
  const meter = context.meters.get(meterNumber);
  if (!meter) return { line, reason: because('unknownMeter', { meterNumber: meterNumber.slice(0, 64) }) };
  const channel = channelOf(mapping, field(columns.channel) ?? '');
  if (channel === undefined)
    return {
      line,
      reason: because('unknownChannel', { value: (field(columns.channel) ?? '').slice(0, 60) }),
    };
  const quality = qualityOf(mapping, field(columns.quality) ?? '');
  return { meter, channel, quality, zone: mapping.timeZone ?? context.timeZone ?? meter.timeZone };
}

/**
 * A wide row: the day in the date column, then one value per interval from the value column on,
 * each `intervalMinutes` long from the day's local midnight (time elapsed: a 23-hour day holds
 * fewer intervals, a 25-hour one more). An empty cell is a missing interval; a value past the
 * day's end is refused, never moved into the next day.
 */
function parseWideRow(
  fields: string[],
  line: number,
  mapping: DelimitedMapping,
  wide: { intervalMinutes: number; count?: number | undefined },
  columns: Columns,
  context: ParseContext,
  given: GivenMeter | undefined,
): ParsedItem[] {
  const field = (index: number) => (index < 0 ? undefined : fields[index]?.trim());
  const facts = rowFacts(field, line, mapping, columns, context, given);
  if ('reason' in facts) return [facts];
  const { meter, channel, quality, zone } = facts;
  const read = readCellTime(field(columns.time) ?? '', undefined, mapping.time.layout);
  if ('error' in read) return [{ line, reason: read.error }];
  // A date with an offset is the day from that instant; a local date, from its local midnight.
  const midnight = 'wall' in read ? Math.floor(read.wall / DAY_MS) * DAY_MS : undefined;
  const dayStart = 'instant' in read ? read.instant : instantOfWall(midnight ?? 0, zone);
  const dayEnd = midnight === undefined ? dayStart + DAY_MS : instantOfWall(midnight + DAY_MS, zone);
  const civil = civilFromDays(Math.floor((midnight ?? dayStart) / DAY_MS));
  const date = `${civil.year}-${String(civil.month).padStart(2, '0')}-${String(civil.day).padStart(2, '0')}`;
  const stepMs = wide.intervalMinutes * MINUTE_MS;
  const stop = wide.count === undefined ? fields.length : Math.min(fields.length, columns.value + wide.count);
  const items: ParsedItem[] = [];
  for (let k = 0; columns.value + k < stop; k++) {
    const text = field(columns.value + k) ?? '';
    if (isMissing(mapping, text)) continue;
    const startMs = dayStart + k * stepMs;
    const endMs = startMs + stepMs;
    if (endMs > dayEnd) {
      const hours = Math.round((dayEnd - dayStart) / HOUR_MS);
      items.push({ line, reason: because('beyondDay', { column: k + 1, date, hours, zone }) });
      continue;
    }
    const micro = energyMicro(text, mapping.decimal, mapping.value.unit, wide.intervalMinutes);
    if (micro === undefined) {
      items.push({ line, reason: because('notANumber', { field: 'value', value: text.slice(0, 40) }) });
      continue;
    }
    if (micro < 0) {
      items.push({ line, reason: because('negativeExport') });
      continue;
    }
    const problem = checkInstant(meter, startMs, context.nowMs, endMs);
    if (problem) items.push({ line, reason: problem });
    else
      items.push({
        row: { line, meterId: meter.id, channel, kind: 'interval', atMs: startMs, endMs, micro, quality },
      });
  }
  return items;
}

function channelOf(mapping: DelimitedMapping, text: string): number | undefined {
  if ('fixed' in mapping.channel) return mapping.channel.fixed === 'import' ? 1 : 2;
  if (containsAny(text, mapping.channel.export)) return 2;
  if (containsAny(text, mapping.channel.import)) return 1;
  return undefined;
}

function qualityOf(mapping: DelimitedMapping, text: string): number {
  if (!mapping.quality || text === '') return 0;
  if (containsAny(text, mapping.quality.substituted)) return 2;
  if (containsAny(text, mapping.quality.estimated)) return 1;
  return 0;
}

function instantOf(
  dateText: string,
  timeText: string | undefined,
  mapping: DelimitedMapping,
  zone: string,
  clockFor: (zone: string) => WallClock,
  clockKey: string,
): { ms: number } | { reason: ImportReason } {
  const read = readCellTime(dateText, timeText, mapping.time.layout);
  if ('error' in read) return { reason: read.error };
  if ('instant' in read) return { ms: read.instant };
  const shown = [dateText, timeText].filter(Boolean).join(' ').slice(0, 40);
  return clockFor(zone).resolve(clockKey, read.wall, shown);
}

/** The interval's length: from the end column, the mapping, or the meter's nominal interval. */
function intervalMinutes(
  mapping: DelimitedMapping,
  meter: MeterFacts,
  columns: Columns,
  field: (index: number) => string | undefined,
  zone: string,
  clockFor: (zone: string) => WallClock,
  clockKey: string,
  timeMs: number,
): number | { reason: ImportReason } {
  if (columns.end < 0) return mapping.intervalMinutes ?? meter.intervalMinutes;
  const endText = field(columns.end) ?? '';
  // An end column with a time of day only shares the date of the start.
  const isTimeOnly = /^\d{1,2}:\d{2}(:\d{2})?$/.test(endText);
  const end = isTimeOnly
    ? instantOf(field(columns.time) ?? '', endText, mapping, zone, clockFor, `${clockKey} e`)
    : instantOf(endText, undefined, mapping, zone, clockFor, `${clockKey} e`);
  if ('reason' in end) return end;
  let endMs = end.ms + (mapping.time.endInclusiveMinute ? MINUTE_MS : 0);
  // An end at midnight written with the start's date (23:45–00:00) is the next day's.
  if (isTimeOnly && endMs <= timeMs) endMs += 86_400_000;
  const minutes = Math.round((endMs - timeMs) / MINUTE_MS);
  if (minutes < 1 || minutes > 44_640) return { reason: because('badIntervalSpan') };
  return minutes;
}
