import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { readingQualities } from '@cm/contracts/check-limits.ts';
import type { ImportDetection, ImportPreview } from '@cm/contracts/import-jobs.ts';
import { localDateOf } from '@cm/contracts/zoned-time.ts';
import type { MeterFacts } from '../directory/index.ts';
import { ImportRefusal, mostCommon, rejectedLine, type ParseContext, type StagedRow } from './import-rows.ts';
import { summarizeBlocks } from './blocks-source.ts';
import { summarizeMdff } from './mdff-source.ts';
import { parserFor, type ReadOptions } from './parsers.ts';
import { ChannelBoth, MAX_RECONCILED_INTERVALS, reconcile } from './reconcile.ts';

const SHOWN_ROWS = 10;
const SHOWN_PROBLEMS = 50;
const SHOWN_DAYS = 400;

/** The meters a parse looks up, remembering the numbers that name none. */
class RecordingMeters extends Map<string, MeterFacts> {
  readonly misses = new Map<string, number>();

  override get(meterNumber: string): MeterFacts | undefined {
    const meter = super.get(meterNumber);
    if (!meter) this.misses.set(meterNumber, (this.misses.get(meterNumber) ?? 0) + 1);
    return meter;
  }
}

interface MeterTally {
  meter: MeterFacts;
  readings: number;
  channels: Set<number>;
  from: number;
  to: number;
  /** How often each spacing (minutes) occurs: interval lengths, or gaps between registers. */
  spacing: Map<number, number>;
  lastRegister: Map<number, number>;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Reads the whole file as the import would, storing nothing: what was detected and why, the
 * first and last readings as parsed, the meters it matches (or does not), the interval found, the
 * readings per local day, how the clock changes were read, and the lines that will be refused.
 */
export async function previewImport(
  file: { open(): Readable },
  read: ReadOptions & { timeZone?: string | undefined; meterNumber?: string | undefined },
  detection: ImportDetection,
  knownMeters: ReadonlyMap<string, MeterFacts>,
  /** Adds a meter channel's stored registers or intervals over a range (reconcile-stored.ts): the file's other kind is reconciled with them. */
  addStored?: (
    ask: { meterId: number; channel: number; fromMs: number; toMs: number },
    kind: 'register' | 'interval',
    into: ChannelBoth,
  ) => Promise<boolean>,
): Promise<ImportPreview> {
  const meters = new RecordingMeters(knownMeters);
  const context: ParseContext = {
    meters,
    timeZone: read.timeZone,
    meterNumber: read.meterNumber,
    nowMs: Date.now(),
    kind: undefined,
    notes: [],
  };
  const preview: ImportPreview = {
    format: read.format,
    preset: detection.preset,
    reason: detection.reason,
    mapping: read.mapping ?? null,
    refusal: null,
    rowsRead: 0,
    readings: 0,
    rejectedCount: 0,
    first: [],
    last: [],
    meters: [],
    days: [],
    notes: [],
    problems: [],
  };
  const byId = new Map<number, MeterTally>();
  const days = new Map<string, { import: number; export: number }>();
  // Registers and intervals of each meter and channel, for their reconciliation.
  const both = new Map<string, { meter: MeterFacts; channel: number; readings: ChannelBoth }>();
  let kept = 0;
  const show = (row: StagedRow, meter: MeterFacts) => ({
    line: row.line,
    meterNumber: meter.meterNumber,
    channel: row.channel === 2 ? ('export' as const) : ('import' as const),
    kind: row.kind,
    start: new Date(row.atMs).toISOString(),
    end: iso(row.endMs),
    value: row.micro / 1e6,
    quality: readingQualities[row.quality] ?? 'actual',
  });
  try {
    for await (const items of parserFor(file, read, context)) {
      for (const item of items) {
        preview.rowsRead++;
        if (!('row' in item)) {
          preview.rejectedCount++;
          if (preview.problems.length < SHOWN_PROBLEMS)
            preview.problems.push(rejectedLine(item.line, item.reason));
          continue;
        }
        const row = item.row;
        const tally = tallyOf(byId, knownMeters, row.meterId);
        if (!tally) continue;
        preview.readings++;
        tally.readings++;
        tally.channels.add(row.channel);
        const end = row.endMs ?? row.atMs;
        tally.from = Math.min(tally.from, row.atMs);
        tally.to = Math.max(tally.to, end);
        noteSpacing(tally, row);
        if (kept < MAX_RECONCILED_INTERVALS) {
          const key = `${row.meterId} ${row.channel}`;
          const entry = both.get(key) ?? {
            meter: tally.meter,
            channel: row.channel,
            readings: new ChannelBoth(),
          };
          both.set(key, entry);
          if (row.endMs === null) entry.readings.registers.push([row.atMs, row.micro]);
          else entry.readings.intervals.push([row.atMs, row.endMs, row.micro]);
          kept++;
        }
        const shown = show(row, tally.meter);
        if (preview.first.length < SHOWN_ROWS) preview.first.push(shown);
        else {
          preview.last.push(shown);
          if (preview.last.length > SHOWN_ROWS) preview.last.shift();
        }
        const day = localDateOf(row.atMs, tally.meter.timeZone);
        const count = days.get(day) ?? { import: 0, export: 0 };
        if (row.channel === 2) count.export++;
        else count.import++;
        days.set(day, count);
      }
      // A large file is read in many batches: other requests go in between.
      await nextTurn();
    }
  } catch (error) {
    if (!(error instanceof ImportRefusal)) throw error;
    preview.refusal = error.message;
  }
  // A block file names no meter: what it holds per direction, a meter chosen or not.
  if (read.format === 'blocks') preview.blocks = await summarizeBlocks(file.open());
  if (read.format === 'nem12' || read.format === 'nem13') {
    // What the file holds per NMI, meters chosen or not (a refused file has shown why already).
    preview.mdff = await summarizeMdff(file.open(), { ...context, meters: knownMeters }, read.mdff).catch(
      (error: unknown) => {
        if (error instanceof ImportRefusal) return null;
        throw error;
      },
    );
  }
  if (addStored && kept < MAX_RECONCILED_INTERVALS)
    for (const { meter, channel, readings } of both.values()) {
      // The file holds one kind only: the other is the meter's stored readings over the file's span.
      const missing =
        readings.registers.length === 0
          ? 'register'
          : readings.intervals.length === 0
            ? 'interval'
            : undefined;
      if (!missing) continue;
      const span = spanOf(readings);
      const before = readings.registers.length + readings.intervals.length;
      await addStored({ meterId: meter.id, channel, ...span }, missing, readings);
      if (readings.registers.length + readings.intervals.length > before)
        context.notes.push(
          `Meter ${meter.meterNumber} (${channel === 2 ? 'export' : 'import'}): the file's ${missing === 'register' ? 'intervals' : 'registers'} reconciled against the ${missing === 'register' ? 'registers' : 'intervals'} stored for it.`,
        );
    }
  const reconciled = [...both.values()].flatMap(({ meter, channel, readings }) => {
    const result = kept < MAX_RECONCILED_INTERVALS ? reconcile(readings, meter, channel) : undefined;
    return result ? [result] : [];
  });
  if (reconciled.length > 0) preview.reconciliation = reconciled;
  preview.notes = [...new Set(context.notes)];
  preview.meters = [
    ...[...byId.values()].map((tally) => ({
      meterNumber: tally.meter.meterNumber,
      known: true,
      location: tally.meter.locationName,
      timeZone: tally.meter.timeZone,
      channels: [...tally.channels]
        .sort()
        .map((channel) => (channel === 2 ? ('export' as const) : ('import' as const))),
      readings: tally.readings,
      lines: tally.readings,
      from: iso(tally.from),
      to: iso(tally.to),
      intervalMinutes: mostCommon(tally.spacing),
    })),
    ...[...meters.misses.entries()].map(([meterNumber, lines]) => ({
      meterNumber,
      known: false,
      location: null,
      timeZone: null,
      channels: [],
      readings: 0,
      lines,
      from: null,
      to: null,
      intervalMinutes: null,
    })),
  ];
  preview.days = [...days.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .slice(0, SHOWN_DAYS)
    .map(([date, count]) => ({ date, ...count }));
  return preview;
}

/** The first and last instant the readings cover. */
function spanOf(readings: ChannelBoth): { fromMs: number; toMs: number } {
  let fromMs = Infinity;
  let toMs = -Infinity;
  for (const [at] of readings.registers) {
    fromMs = Math.min(fromMs, at);
    toMs = Math.max(toMs, at);
  }
  for (const [start, end] of readings.intervals) {
    fromMs = Math.min(fromMs, start);
    toMs = Math.max(toMs, end);
  }
  return { fromMs, toMs };
}

function tallyOf(byId: Map<number, MeterTally>, known: ReadonlyMap<string, MeterFacts>, meterId: number) {
  let tally = byId.get(meterId);
  if (tally) return tally;
  const meter = [...known.values()].find((candidate) => candidate.id === meterId);
  if (!meter) return undefined;
  tally = {
    meter,
    readings: 0,
    channels: new Set(),
    from: Infinity,
    to: -Infinity,
    spacing: new Map(),
    lastRegister: new Map(),
  };
  byId.set(meterId, tally);
  return tally;
}

function noteSpacing(tally: MeterTally, row: StagedRow) {
  let minutes: number | undefined;
  if (row.endMs !== null) minutes = Math.round((row.endMs - row.atMs) / 60_000);
  else {
    const last = tally.lastRegister.get(row.channel);
    if (last !== undefined) minutes = Math.round(Math.abs(row.atMs - last) / 60_000);
    tally.lastRegister.set(row.channel, row.atMs);
  }
  if (minutes !== undefined && minutes > 0) tally.spacing.set(minutes, (tally.spacing.get(minutes) ?? 0) + 1);
}

/** A meter the file names that is not on the site yet, as it would be: at a location, in its zone. */
export interface NewMeter {
  meterNumber: string;
  timeZone: string;
  locationName: string;
}

/** What the file holds for a meter not on the site yet. */
export interface NewMeterReadings {
  fromMs: number;
  /** The largest register value (millionths, before the multiplier); 0 without registers. */
  maxRegisterMicro: number;
  channels: number[];
  intervalMinutes: number | null;
}

/**
 * Reads the file as the import would, as if the new meters were on the site already (installed
 * since ever, at their location's zone): each one's first reading, channels and interval. A new
 * meter the file holds no reading of is missing from the answer.
 */
export async function readingsOfNewMeters(
  file: { open(): Readable },
  read: ReadOptions & { timeZone?: string | undefined; meterNumber?: string | undefined },
  knownMeters: ReadonlyMap<string, MeterFacts>,
  wanted: readonly NewMeter[],
): Promise<Map<string, NewMeterReadings>> {
  const meters = new Map(knownMeters);
  // Ids no stored meter has: the parse only hands them back.
  for (const [i, meter] of wanted.entries())
    meters.set(meter.meterNumber, {
      id: -1 - i,
      meterNumber: meter.meterNumber,
      multiplier: 1,
      registerDigits: 9,
      intervalMinutes: 15,
      installedAtMs: -Infinity,
      removedAtMs: null,
      channels: [1, 2],
      timeZone: meter.timeZone,
      locationName: meter.locationName,
    });
  const context: ParseContext = {
    meters,
    timeZone: read.timeZone,
    meterNumber: read.meterNumber,
    nowMs: Date.now(),
    kind: undefined,
    notes: [],
  };
  const byId = new Map<number, MeterTally>();
  const maxRegister = new Map<number, number>();
  for await (const items of parserFor(file, read, context)) {
    for (const item of items) {
      if (!('row' in item) || item.row.meterId >= 0) continue;
      if (item.row.endMs === null)
        maxRegister.set(item.row.meterId, Math.max(maxRegister.get(item.row.meterId) ?? 0, item.row.micro));
      const tally = tallyOf(byId, meters, item.row.meterId);
      if (!tally) continue;
      tally.channels.add(item.row.channel);
      tally.from = Math.min(tally.from, item.row.atMs);
      noteSpacing(tally, item.row);
    }
    await nextTurn();
  }
  return new Map(
    [...byId.values()].map((tally) => [
      tally.meter.meterNumber,
      {
        fromMs: tally.from,
        maxRegisterMicro: maxRegister.get(tally.meter.id) ?? 0,
        channels: [...tally.channels].sort(),
        intervalMinutes: mostCommon(tally.spacing),
      },
    ]),
  );
}
