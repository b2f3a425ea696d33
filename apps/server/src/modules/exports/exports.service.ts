import { CSV_LINE_END, csvText } from '@cm/contracts/csv.ts';
import { Readable } from 'node:stream';
import { setImmediate as turnOfTheLoop } from 'node:timers/promises';
import type { ExportQuery } from '@cm/contracts/admin.ts';
import { isoInZone, localDateOf } from '@cm/contracts/zoned-time.ts';
import { readingQualities } from '@cm/contracts/check-limits.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import { HttpError } from '../../http-error.ts';
import { RangeInputError, resolveRange, readings, ReadingKind } from '../readings/index.ts';
import { findExportMeter, findVisibleItem, type ExportMeter } from '../directory/index.ts';
import {
  espiDocument,
  espiFeed,
  type ChannelSource,
  type EspiResource,
  type UsageSummaryFacts,
} from './espi-writer.ts';
import { type AuthContext, scopeOf } from '../access/index.ts';
import type { AccessRecording, Reader } from '../access-log/index.ts';

// Rows read per query; each page is turned into text in one go, during which nothing else runs.
const PAGE_ROWS = 2_000;

export interface ExportFile {
  contentType: string;
  fileName: string;
  body: Readable;
}

/**
 * A meter by number and whole local days of its location (`From`, `To` both included), as the
 * admin's meter-and-range asks read them: 404 for no such meter, 400 naming a bad bound.
 */
export async function meterDays(
  db: SqlRunner,
  query: { meterNumber: string; From: string; To: string },
): Promise<{ meter: ExportMeter; fromMs: number; toMs: number }> {
  const meter = await findExportMeter(db, query.meterNumber);
  if (!meter) throw new HttpError(404, 'Meter not found. Check the meter number.', 'meterNumber');
  try {
    const { fromMs, toMs } = resolveRange(query, meter.timeZone, 'day');
    return { meter, fromMs, toMs };
  } catch (error) {
    if (error instanceof RangeInputError) throw new HttpError(400, error.message, error.param);
    throw error;
  }
}

/** Readings out as CSV or Green Button ESPI Atom XML, streamed page by page (never the whole range in memory). */
export class ExportsService {
  /** `access`: where each file taken is logged ("Who read my data"). */
  constructor(
    private readonly db: Db,
    private readonly access?: AccessRecording,
  ) {}

  /**
   * A meter's stored readings, every channel and kind, as a file, logged as read by `reader`.
   * `selfHref` is the address asked (the ESPI feed's self link).
   */
  async exportReadings(
    query: ExportQuery,
    options: { selfHref: string; reader: Reader; what?: string },
  ): Promise<ExportFile> {
    const { meter, fromMs, toMs } = await meterDays(this.db, query);
    const channels = await this.channelSources(meter.id, fromMs, toMs);
    await this.access?.record({
      meterIds: [meter.id],
      reader: options.reader,
      data: ['registers', 'intervals'],
      fromMs,
      toMs,
      what: options.what ?? `export (${query.format})`,
    });
    const { selfHref } = options;
    // The meter and the local dates asked for: EM-10009-2026-03-01-to-2026-03-31.csv
    const lastDay = localDateOf(Math.max(fromMs, toMs - 1), meter.timeZone);
    const base = `${meter.meterNumber.replace(/[^\w.-]/g, '_')}-${localDateOf(fromMs, meter.timeZone)}-to-${lastDay}`;
    if (query.format === 'csv') {
      return {
        contentType: 'text/csv; charset=utf-8',
        fileName: `${base}.csv`,
        body: Readable.from(csvLines(meter, channels)),
      };
    }
    return {
      contentType: 'application/atom+xml; charset=utf-8',
      fileName: `${base}.xml`,
      body: Readable.from(espiDocument({ meter, fromMs, toMs, channels, selfHref })),
    };
  }

  /** Download My Data: the caller's own meter, Green Button ESPI unless CSV is asked. */
  async downloadMyData(
    caller: AuthContext,
    query: ExportQuery,
    options: { selfHref: string; reader: Reader },
  ): Promise<ExportFile> {
    if (!(await findVisibleItem(this.db, scopeOf(caller), 'meter', query.meterNumber)))
      throw new HttpError(404, 'Meter not found. Check the meter number.', 'meterNumber');
    return this.exportReadings(query, { ...options, what: `DownloadMyData (${query.format})` });
  }

  /**
   * The ESPI resource API's feed (Connect My Data): parts of one or more meters' feeds, each over
   * its own range (the grant's dates); the caller has checked the grant and logs the read.
   */
  async resourceFeed(
    title: string,
    selfHref: string,
    parts: Array<{
      meter: ExportMeter;
      fromMs: number;
      toMs: number;
      resource: EspiResource;
      /** The cost of the range (a grant of cost): the usage point's UsageSummary. */
      usageSummary?: UsageSummaryFacts | null;
    }>,
  ): Promise<Readable> {
    const requests = await Promise.all(
      parts.map(async (part) => ({
        ...part,
        selfHref,
        channels:
          part.toMs > part.fromMs && part.resource.part !== 'usage-summary'
            ? await this.channelSources(part.meter.id, part.fromMs, part.toMs)
            : [],
      })),
    );
    return Readable.from(espiFeed(title, selfHref, requests));
  }

  /**
   * The channels with readings in [fromMs, toMs], import first, each with readers of its registers
   * (the reading at `to` closes the last interval, as in the check API) and its interval records
   * (those starting before `to`), page by page.
   */
  private async channelSources(meterId: number, fromMs: number, toMs: number): Promise<ChannelSource[]> {
    const kinds = await readings.storedKinds(this.db, meterId, fromMs, toMs);
    const has = (channel: number, kind: number) =>
      kinds.some((found) => found.channel === channel && found.kind === kind);
    return [...new Set(kinds.map((found) => found.channel))]
      .sort((a, b) => a - b)
      .map((channel) => {
        const ask = (afterMs: number) => ({ meterId, channel, afterMs, toMs, limit: PAGE_ROWS });
        return {
          channel,
          registers: has(channel, ReadingKind.register)
            ? () => this.pages((after) => readings.registersPage(this.db, ask(after)), fromMs)
            : undefined,
          intervals: has(channel, ReadingKind.interval)
            ? () => this.pages((after) => readings.intervalsPage(this.db, ask(after)), fromMs)
            : undefined,
        };
      });
  }

  /** Pages of rows keyed by their first column (an instant), each page after the last one's key. */
  private async *pages<Row extends [number, ...number[]]>(
    page: (afterMs: number) => Promise<Row[]>,
    fromMs: number,
  ): AsyncGenerator<Row[]> {
    let after = fromMs - 1;
    for (;;) {
      const rows = await page(after);
      if (rows.length === 0) return;
      yield rows;
      const last = rows[rows.length - 1];
      if (rows.length < PAGE_ROWS || !last) return;
      after = last[0];
    }
  }
}

/** Millionths as kWh with at least three decimals and no trailing zeros past them: 12.2271, 5.000. */
function kwhText(micro: number): string {
  const text = (micro / 1e6).toFixed(6);
  return text.replace(/(\.\d{3}\d*?)0+$/, '$1');
}

/** The export's columns (docs/import-formats.md, "Exports"): one row per stored reading. */
export const EXPORT_CSV_HEADER = 'meter_number,channel,kind,start,end,value_kwh,quality';
const CHANNEL_NAMES: Record<number, string> = { 1: 'import', 2: 'export' };

/**
 * CSV of every stored reading, channel by channel (import first), each channel's registers then
 * its interval records, in time order; times in the location's zone with their offset. A register
 * row's start and end are its instant and its value is the register as the meter shows it (before
 * the CT multiplier); an interval row's value is the energy of [start, end) after it. CM's CSV
 * import reads the file back (csv-source.ts).
 */
async function* csvLines(meter: ExportMeter, channels: ChannelSource[]): AsyncGenerator<string> {
  yield `${EXPORT_CSV_HEADER}${CSV_LINE_END}`;
  const zone = meter.timeZone;
  for (const { channel, registers, intervals } of channels) {
    const lead = `${csvText(meter.meterNumber)},${CHANNEL_NAMES[channel] ?? channel}`;
    const quality = (code: number) => readingQualities[code] ?? 'actual';
    if (registers)
      for await (const page of registers()) {
        let chunk = '';
        for (const [ms, micro, code] of page) {
          const at = isoInZone(ms, zone);
          chunk += `${lead},register,${at},${at},${kwhText(micro)},${quality(code)}${CSV_LINE_END}`;
        }
        yield chunk;
        await turnOfTheLoop();
      }
    if (intervals)
      for await (const page of intervals()) {
        let chunk = '';
        for (const [startMs, endMs, micro, code] of page)
          chunk += `${lead},interval,${isoInZone(startMs, zone)},${isoInZone(endMs, zone)},${kwhText(micro)},${quality(code)}${CSV_LINE_END}`;
        yield chunk;
        await turnOfTheLoop();
      }
  }
}
