import { DAY_MS, localParts, startOfLocal } from '@cm/contracts/zoned-time.ts';
import type { ExportMeterRow } from '../directory/meters.service.ts';
import { registerSteps, StepFlag, StepKind, Steps } from '../readings/engine/steps.ts';
import { localTimeParameters } from './espi-time.ts';

/*
 * Green Button ESPI Atom feed of one meter (NAESB REQ.21, usage.xsd v3.3), linked the way Green
 * Button consumers follow it: UsagePoint → MeterReading → ReadingType and IntervalBlocks, and the
 * UsagePoint's LocalTimeParameters (its zone's offsets and DST rules).
 * - MeterReading 1: the register as stored, cumulative (accumulationBehaviour 1), one IntervalBlock
 *   per page of readings: what an import reads back unchanged.
 * - MeterReading 2 (Download My Data): the energy of each interval (deltaData, 4, with its
 *   intervalLength), one IntervalBlock per local day, from the readings engine's own register walk
 *   (rollovers counted, a register that went down left out, readings missing in between: one
 *   reading over the longer span).
 * Energies in mWh (uom 72 Wh, powerOfTenMultiplier -3) after the CT multiplier.
 */

/** Register readings as stored: [instant ms, millionths of a kWh, quality 0/1/2]. */
export type RegisterPage = Array<[number, number, number]>;

export interface EspiRequest {
  meter: ExportMeterRow;
  fromMs: number;
  toMs: number;
  /** The address the document came from (the feed's self link). */
  selfHref: string;
  /** Reads the registers in [fromMs, toMs] page by page; called once per MeterReading. */
  registers: () => AsyncIterable<RegisterPage>;
  /** Adds MeterReading 2, the energy per interval. */
  withIntervals: boolean;
}

const BASE = '/espi/1_1/resource';
const POINT = `${BASE}/Subscription/1/UsagePoint/1`;
const TIME_PARAMETERS = `${BASE}/LocalTimeParameters/1`;

const xmlEscape = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

/** ESPI QualityOfReading: 8 estimated, 7 manually edited (our substituted); none for actual. */
function qualityXml(quality: 'actual' | 'estimated' | 'substituted'): string {
  if (quality === 'actual') return '';
  return `<espi:ReadingQuality><espi:quality>${quality === 'estimated' ? 8 : 7}</espi:quality></espi:ReadingQuality>`;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

function intervalReading(startMs: number, durationMs: number, value: number, quality: string): string {
  return `<espi:IntervalReading>${quality}<espi:timePeriod><espi:duration>${seconds(durationMs)}</espi:duration><espi:start>${seconds(startMs)}</espi:start></espi:timePeriod><espi:value>${value}</espi:value></espi:IntervalReading>\n`;
}

/** An Atom link as ESPI types it: `espi-entry/Kind` for one resource, `espi-feed/Kind` for a collection. */
interface Link {
  href: string;
  kind: string;
  isFeed?: boolean;
}

const linkXml = (rel: string, { href, kind, isFeed }: Link) =>
  `\n    <link rel="${rel}" type="espi-${isFeed ? 'feed' : 'entry'}/${kind}" href="${xmlEscape(href)}"/>`;

function entry(
  kind: string,
  links: { self: string; related?: Link[] },
  title: string,
  content: string,
  now: string,
) {
  const up = links.self.slice(0, links.self.lastIndexOf('/'));
  const related = (links.related ?? []).map((link) => linkXml('related', link));
  return `  <entry>
    <id>urn:cm:${xmlEscape(links.self)}</id>${linkXml('self', { href: links.self, kind })}${linkXml('up', { href: up, kind, isFeed: true })}${related.join('')}
    <title>${xmlEscape(title)}</title>
    <content>${content}</content>
    <published>${now}</published>
    <updated>${now}</updated>
  </entry>
`;
}

function readingType(kind: 'cumulative' | 'delta', intervalSeconds: number): string {
  const accumulation = kind === 'cumulative' ? 1 : 4;
  const interval = kind === 'delta' ? `<espi:intervalLength>${intervalSeconds}</espi:intervalLength>` : '';
  return `<espi:ReadingType><espi:accumulationBehaviour>${accumulation}</espi:accumulationBehaviour><espi:commodity>1</espi:commodity><espi:flowDirection>1</espi:flowDirection>${interval}<espi:kind>12</espi:kind><espi:powerOfTenMultiplier>-3</espi:powerOfTenMultiplier><espi:uom>72</espi:uom></espi:ReadingType>`;
}

/** The feed, written as it is read. */
export async function* espiDocument(request: EspiRequest): AsyncGenerator<string> {
  const { meter } = request;
  const now = new Date().toISOString();
  const time = localTimeParameters(meter.time_zone, localParts(request.fromMs, meter.time_zone).year);
  const meterReadings = request.withIntervals ? [1, 2] : [1];
  yield `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:espi="http://naesb.org/espi">
  <id>urn:cm:${xmlEscape(request.selfHref)}</id>
  <title>${xmlEscape(`Readings of meter ${meter.meter_number} at ${meter.public_name}`)}</title>
  <updated>${now}</updated>
  <link rel="self" type="application/atom+xml" href="${xmlEscape(request.selfHref)}"/>
`;
  yield entry(
    'UsagePoint',
    {
      self: POINT,
      related: [
        { href: `${POINT}/MeterReading`, kind: 'MeterReading', isFeed: true },
        { href: TIME_PARAMETERS, kind: 'LocalTimeParameters' },
      ],
    },
    meter.meter_number,
    '<espi:UsagePoint><espi:ServiceCategory><espi:kind>0</espi:kind></espi:ServiceCategory></espi:UsagePoint>',
    now,
  );
  yield entry(
    'LocalTimeParameters',
    { self: TIME_PARAMETERS },
    meter.time_zone,
    `<espi:LocalTimeParameters><espi:dstEndRule>${time.dstEndRule}</espi:dstEndRule><espi:dstOffset>${time.dstOffset}</espi:dstOffset><espi:dstStartRule>${time.dstStartRule}</espi:dstStartRule><espi:tzOffset>${time.tzOffset}</espi:tzOffset></espi:LocalTimeParameters>`,
    now,
  );
  for (const index of meterReadings) {
    const reading = `${POINT}/MeterReading/${index}`;
    const type = `${BASE}/ReadingType/${index}`;
    const isRegister = index === 1;
    yield entry(
      'MeterReading',
      {
        self: reading,
        related: [
          { href: type, kind: 'ReadingType' },
          { href: `${reading}/IntervalBlock`, kind: 'IntervalBlock', isFeed: true },
        ],
      },
      isRegister
        ? `Register of meter ${meter.meter_number}`
        : `Energy per interval of meter ${meter.meter_number}`,
      '<espi:MeterReading/>',
      now,
    );
    yield entry(
      'ReadingType',
      { self: type },
      isRegister ? 'Cumulative energy, mWh' : 'Energy per interval, mWh',
      readingType(isRegister ? 'cumulative' : 'delta', meter.interval_minutes * 60),
      now,
    );
    const blocks = isRegister ? registerBlocks(request) : intervalBlocks(request);
    let block = 0;
    for await (const { startMs, durationMs, readings } of blocks) {
      block++;
      yield entry(
        'IntervalBlock',
        { self: `${reading}/IntervalBlock/${block}` },
        '',
        `<espi:IntervalBlock><espi:interval><espi:duration>${seconds(durationMs)}</espi:duration><espi:start>${seconds(startMs)}</espi:start></espi:interval>\n${readings}</espi:IntervalBlock>`,
        now,
      );
    }
  }
  yield '</feed>\n';
}

interface Block {
  startMs: number;
  durationMs: number;
  readings: string;
}

const QUALITY_OF_CODE = ['actual', 'estimated', 'substituted'] as const;

/** The register as stored, one block per page: a reading is the register at an instant (duration 0). */
async function* registerBlocks({ meter, registers }: EspiRequest): AsyncGenerator<Block> {
  for await (const page of registers()) {
    const first = page[0]?.[0] ?? 0;
    const last = page[page.length - 1]?.[0] ?? first;
    let readings = '';
    for (const [ms, micro, quality] of page)
      readings += intervalReading(
        ms,
        0,
        micro * meter.multiplier,
        qualityXml(QUALITY_OF_CODE[quality] ?? 'actual'),
      );
    yield { startMs: first, durationMs: last - first, readings };
  }
}

/**
 * The energy of each interval, one block per local day (23 or 25 hours on DST days). Each page is
 * walked with the last reading of the page before it, so no interval is lost between pages.
 */
async function* intervalBlocks({ meter, registers, fromMs, toMs }: EspiRequest): AsyncGenerator<Block> {
  const zone = meter.time_zone;
  const steps = new Steps();
  let carried: [number, number, number] | undefined;
  let day: Block | undefined;
  for await (const page of registers()) {
    const rows = carried ? [carried, ...page] : page;
    carried = page[page.length - 1];
    const column = (k: 0 | 1 | 2) => rows.map((row) => row[k]);
    registerSteps(
      {
        registers: {
          t: column(0),
          micro: column(1),
          quality: column(2),
          revised: new Uint8Array(rows.length),
        },
        fromMs,
        toMs,
        multiplier: meter.multiplier,
        registerDigits: meter.register_digits,
        intervalMs: meter.interval_minutes * 60_000,
      },
      steps.reset(rows.length),
    );
    for (let i = 0; i < steps.length; i++) {
      const kind = steps.kind[i];
      if (kind !== StepKind.interval && kind !== StepKind.registerGap) continue;
      const start = steps.start[i] ?? 0;
      const end = steps.end[i] ?? start;
      const dayStart = startOfLocal({ ...localParts(start, zone), hour: 0, minute: 0, second: 0 }, zone);
      if (day && day.startMs !== dayStart) yield day;
      if (!day || day.startMs !== dayStart) {
        const next = localParts(dayStart + DAY_MS + 12 * 3_600_000, zone);
        const dayEnd = startOfLocal({ year: next.year, month: next.month, day: next.day }, zone);
        day = { startMs: dayStart, durationMs: dayEnd - dayStart, readings: '' };
      }
      const flags = steps.flags[i] ?? 0;
      const quality =
        flags & StepFlag.substituted ? 'substituted' : flags & StepFlag.estimated ? 'estimated' : 'actual';
      day.readings += intervalReading(start, end - start, steps.energy[i] ?? 0, qualityXml(quality));
    }
  }
  if (day) yield day;
}
