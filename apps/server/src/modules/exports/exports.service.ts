import { CSV_LINE_END, csvText } from '@cm/contracts/csv.ts';
import { Readable } from 'node:stream';
import type { ExportQuery } from '@cm/contracts/admin.ts';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../http-error.ts';
import { RangeInputError, resolveRange } from '../readings/range.ts';
import { localParts, utcOffsetMs } from '@cm/contracts/zoned-time.ts';
import { readings } from '../readings/readings.service.ts';
import { meters, type ExportMeterRow } from '../directory/meters.service.ts';

const PAGE_ROWS = 10_000;

export interface ExportFile {
  contentType: string;
  fileName: string;
  body: Readable;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** ISO 8601 with the offset in force at that instant in `timeZone`: 2026-03-29T03:00:00+02:00. */
export function isoInZone(ms: number, timeZone: string): string {
  const p = localParts(ms, timeZone);
  const offsetMinutes = Math.round(utcOffsetMs(ms, timeZone) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const fraction = p.millisecond ? `.${pad(p.millisecond, 3)}` : '';
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${fraction}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const xmlEscape = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

/** Readings out as CSV or Green Button ESPI Atom XML, streamed page by page (never the whole range in memory). */
export class ExportsService {
  constructor(private readonly db: Db) {}

  async exportReadings(query: ExportQuery): Promise<ExportFile> {
    const meter = await meters.forExport(this.db, query.meterNumber);
    if (!meter) throw new HttpError(404, 'Meter not found. Check the meter number.', 'meterNumber');
    let range;
    try {
      range = resolveRange(query, meter.time_zone, 'day');
    } catch (error) {
      if (error instanceof RangeInputError) throw new HttpError(400, error.message, error.param);
      throw error;
    }
    const pages = this.pages(meter.device_id, range.fromMs, range.toMs);
    const base = `${meter.meter_number.replace(/[^\w.-]/g, '_')}-readings`;
    if (query.format === 'csv') {
      return {
        contentType: 'text/csv; charset=utf-8',
        fileName: `${base}.csv`,
        body: Readable.from(csvLines(meter, pages)),
      };
    }
    return {
      contentType: 'application/atom+xml; charset=utf-8',
      fileName: `${base}.xml`,
      body: Readable.from(espiDocument(meter, pages, range.fromMs, range.toMs)),
    };
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

/**
 * Green Button ESPI Atom feed: UsagePoint, MeterReading, ReadingType (cumulative mWh, after the
 * multiplier: accumulationBehaviour 1, uom 72, powerOfTenMultiplier -3) and one IntervalBlock per
 * page of readings.
 * Validates against NAESB REQ.21 v3.3 usage.xsd.
 */
async function* espiDocument(
  meter: ExportMeterRow,
  pages: AsyncIterable<Array<[number, number, number]>>,
  fromMs: number,
  toMs: number,
): AsyncGenerator<string> {
  const now = new Date().toISOString();
  const id = (suffix: string) => `urn:cm:${encodeURIComponent(meter.meter_number)}:${suffix}`;
  const entry = (suffix: string, title: string, content: string) => `  <entry>
    <id>${xmlEscape(id(suffix))}</id>
    <link rel="self" type="espi-entry/${suffix.split('/')[0] ?? suffix}" href="${xmlEscape(`/espi/UsagePoint/${encodeURIComponent(meter.meter_number)}/${suffix}`)}"/>
    <link rel="up" type="espi-feed/${suffix.split('/')[0] ?? suffix}" href="${xmlEscape(`/espi/UsagePoint/${encodeURIComponent(meter.meter_number)}`)}"/>
    <title>${xmlEscape(title)}</title>
    <content>${content}</content>
    <published>${now}</published>
    <updated>${now}</updated>
  </entry>
`;
  yield `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:espi="http://naesb.org/espi">
  <id>${xmlEscape(id('feed'))}</id>
  <title>${xmlEscape(`Readings of meter ${meter.meter_number} at ${meter.public_name}`)}</title>
  <updated>${now}</updated>
  <link rel="self" type="application/atom+xml" href="${xmlEscape(`/api/admin/exports/readings?meterNumber=${encodeURIComponent(meter.meter_number)}&From=${new Date(fromMs).toISOString()}&To=${new Date(toMs).toISOString()}&format=espi`)}"/>
`;
  yield entry(
    'UsagePoint',
    meter.public_name,
    '<espi:UsagePoint><espi:ServiceCategory><espi:kind>0</espi:kind></espi:ServiceCategory></espi:UsagePoint>',
  );
  yield entry('MeterReading', `Meter ${meter.meter_number}`, '<espi:MeterReading/>');
  yield entry(
    'ReadingType',
    'Cumulative energy, mWh',
    '<espi:ReadingType><espi:accumulationBehaviour>1</espi:accumulationBehaviour><espi:commodity>1</espi:commodity><espi:flowDirection>1</espi:flowDirection><espi:kind>12</espi:kind><espi:powerOfTenMultiplier>-3</espi:powerOfTenMultiplier><espi:uom>72</espi:uom></espi:ReadingType>',
  );
  let block = 0;
  for await (const page of pages) {
    const first = Math.floor((page[0]?.[0] ?? fromMs) / 1000);
    const last = Math.floor((page[page.length - 1]?.[0] ?? fromMs) / 1000);
    let readings = '';
    for (const [ms, micro, quality] of page) {
      // Register (millionths of a kWh = mWh) × CT multiplier = energy in mWh.
      const code = quality === 1 ? 8 : quality === 2 ? 7 : undefined;
      readings += `<espi:IntervalReading>${code === undefined ? '' : `<espi:ReadingQuality><espi:quality>${code}</espi:quality></espi:ReadingQuality>`}<espi:timePeriod><espi:duration>0</espi:duration><espi:start>${Math.floor(ms / 1000)}</espi:start></espi:timePeriod><espi:value>${micro * meter.multiplier}</espi:value></espi:IntervalReading>\n`;
    }
    block++;
    yield entry(
      `IntervalBlock/${block}`,
      '',
      `<espi:IntervalBlock><espi:interval><espi:duration>${last - first}</espi:duration><espi:start>${first}</espi:start></espi:interval>\n${readings}</espi:IntervalBlock>`,
    );
  }
  yield '</feed>\n';
}
