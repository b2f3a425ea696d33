import { CSV_LINE_END, csvText } from '@cm/contracts/csv.ts';
import { Readable } from 'node:stream';
import type { ExportQuery } from '@cm/contracts/admin.ts';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../http-error.ts';
import { RangeInputError, resolveRange } from '../readings/range.ts';
import { isoInZone, localDateOf } from '@cm/contracts/zoned-time.ts';
import { readings } from '../readings/readings.service.ts';
import { meters, type ExportMeterRow } from '../directory/meters.service.ts';
import { espiDocument } from './espi-writer.ts';
import type { AuthContext } from '../auth/auth.service.ts';
import { scopeOf } from '../auth/scope.ts';

const PAGE_ROWS = 10_000;

export interface ExportFile {
  contentType: string;
  fileName: string;
  body: Readable;
}

/** Readings out as CSV or Green Button ESPI Atom XML, streamed page by page (never the whole range in memory). */
export class ExportsService {
  constructor(private readonly db: Db) {}

  /**
   * A meter's readings as a file. `selfHref` is the address asked (the ESPI feed's self link);
   * `withIntervals` adds the energy per interval to the ESPI feed (Download My Data).
   */
  async exportReadings(
    query: ExportQuery,
    options: { selfHref: string; withIntervals: boolean },
  ): Promise<ExportFile> {
    const meter = await meters.forExport(this.db, query.meterNumber);
    if (!meter) throw new HttpError(404, 'Meter not found. Check the meter number.', 'meterNumber');
    let range;
    try {
      range = resolveRange(query, meter.time_zone, 'day');
    } catch (error) {
      if (error instanceof RangeInputError) throw new HttpError(400, error.message, error.param);
      throw error;
    }
    const { fromMs, toMs } = range;
    const registers = () => this.pages(meter.device_id, fromMs, toMs);
    // The meter and the local dates asked for: EM-10009-2026-03-01-to-2026-03-31.csv
    const lastDay = localDateOf(Math.max(fromMs, toMs - 1), meter.time_zone);
    const base = `${meter.meter_number.replace(/[^\w.-]/g, '_')}-${localDateOf(fromMs, meter.time_zone)}-to-${lastDay}`;
    if (query.format === 'csv') {
      return {
        contentType: 'text/csv; charset=utf-8',
        fileName: `${base}.csv`,
        body: Readable.from(csvLines(meter, registers())),
      };
    }
    return {
      contentType: 'application/atom+xml; charset=utf-8',
      fileName: `${base}.xml`,
      body: Readable.from(espiDocument({ meter, fromMs, toMs, registers, ...options })),
    };
  }

  /** Download My Data: the caller's own meter, the ESPI feed with the energy per interval. */
  async downloadMyData(caller: AuthContext, query: ExportQuery, selfHref: string): Promise<ExportFile> {
    if (!(await meters.visibleItem(this.db, scopeOf(caller), 'meter', query.meterNumber)))
      throw new HttpError(404, 'Meter not found. Check the meter number.', 'meterNumber');
    return this.exportReadings(query, { selfHref, withIntervals: true });
  }

  // Readings in [fromMs, toMs]: the reading at `to` closes the last interval, as in the check API.
  private async *pages(
    meterId: number,
    fromMs: number,
    toMs: number,
  ): AsyncGenerator<Array<[number, number, number]>> {
    let after = fromMs - 1;
    for (;;) {
      const page = await readings.registersPage(this.db, meterId, after, toMs, PAGE_ROWS);
      if (page.length === 0) return;
      yield page;
      after = page[page.length - 1]?.[0] ?? toMs;
      if (page.length < PAGE_ROWS) return;
    }
  }
}

/** Millionths as kWh with at least three decimals and no trailing zeros past them: 12.2271, 5.000. */
function kwhText(micro: number): string {
  const text = (micro / 1e6).toFixed(6);
  return text.replace(/(\.\d{3}\d*?)0+$/, '$1');
}

/** CSV in the import's own columns (so an export can be imported again); times in the location's zone with offset. */
async function* csvLines(
  meter: ExportMeterRow,
  pages: AsyncIterable<Array<[number, number, number]>>,
): AsyncGenerator<string> {
  yield `meter_number,timestamp,register_kwh,quality${CSV_LINE_END}`;
  const number = csvText(meter.meter_number);
  for await (const page of pages) {
    let chunk = '';
    for (const [ms, micro, quality] of page)
      chunk += `${number},${isoInZone(ms, meter.time_zone)},${kwhText(micro)},${quality}${CSV_LINE_END}`;
    yield chunk;
  }
}
