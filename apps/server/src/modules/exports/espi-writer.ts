import { setImmediate as turnOfTheLoop } from 'node:timers/promises';
import { DAY_MS, localParts, startOfLocal } from '@cm/contracts/zoned-time.ts';
import { readingQualities } from '@cm/contracts/check-limits.ts';
import type { ExportMeter } from '../directory/index.ts';
import { registerSteps, StepFlag, StepKind, Steps } from '../readings/index.ts';
import { localTimeParameters } from './espi-time.ts';

/*
 * Green Button ESPI Atom feed of one meter (NAESB REQ.21, usage.xsd v3.3), linked the way Green
 * Button consumers follow it: UsagePoint → MeterReading → ReadingType and IntervalBlocks, and the
 * UsagePoint's LocalTimeParameters (its zone's offsets and DST rules). For every channel the meter
 * has readings of (flowDirection 1 import, 19 export):
 * - the register as stored, cumulative (accumulationBehaviour 1), where the channel has registers;
 * - the energy of each interval (deltaData, 4, with its intervalLength): the interval records as
 *   stored where the channel has them, else the energies between its registers, from the readings
 *   engine's own register walk (rollovers counted, a register that went down left out, readings
 *   missing in between: one reading over the longer span). Those derived energies carry
 *   `defaultQuality` 11 (derived), which tells an import (CM's own among them) that they are the
 *   registers' differences, not readings of their own.
 * One IntervalBlock per local day (23 or 25 hours on DST days); ReadingQuality where a value is
 * not actual. Energies in mWh (uom 72 Wh, powerOfTenMultiplier -3) after the CT multiplier.
 */

/** Register readings as stored: [instant ms, millionths of a kWh, quality 0/1/2]. */
export type RegisterPage = Array<[number, number, number]>;
/** Interval records as stored: [start ms, end ms, millionths of a kWh, quality 0/1/2]. */
export type IntervalPage = Array<[number, number, number, number]>;

/** A channel's stored readings, read page by page as they are written out. */
export interface ChannelSource {
  /** 1 import, 2 export. */
  channel: number;
  /** The registers in [fromMs, toMs], or none when the channel has no register there. */
  registers: (() => AsyncIterable<RegisterPage>) | undefined;
  /** The interval records starting in [fromMs, toMs), or none when the channel has none there. */
  intervals: (() => AsyncIterable<IntervalPage>) | undefined;
}

export interface EspiRequest {
  meter: ExportMeter;
  fromMs: number;
  toMs: number;
  /** The address the document came from (the feed's self link). */
  selfHref: string;
  /** The channels with readings in the range, import first. */
  channels: ChannelSource[];
  /** The resource API's part (Connect My Data); the whole feed, numbered 1, when left out. */
  resource?: EspiResource;
  /** The cost of the range (a grant of cost): written as the usage point's UsageSummary. */
  usageSummary?: UsageSummaryFacts | null;
}

/** What a UsageSummary says: the bill of [fromMs, toMs) and the energy imported then. */
export interface UsageSummaryFacts {
  fromMs: number;
  toMs: number;
  /** The bill's total, in the currency's units. */
  total: number;
  /** ISO 4217 (EUR); ESPI writes its number (978), or none for a code it has no number for here. */
  currency: string;
  /** Energy imported, millionths of a kWh (mWh); null without data. */
  importMicro: number | null;
  /** Some of it was estimated or substituted. */
  isEstimated: boolean;
  /** The range runs to now (billToDate), else it is over (billLastPeriod). */
  isToDate: boolean;
  /** When it was computed. */
  atMs: number;
}

/**
 * Which part of a meter's feed the ESPI resource API serves, under which ids: the subscription (a
 * grant), the usage point (the meter), the kinds of data granted; `part` the UsagePoint entries, the
 * MeterReadings (with their ReadingTypes), one MeterReading's IntervalBlocks, or all of it (Batch).
 */
export interface EspiResource {
  subscriptionId: number;
  usagePointId: number;
  registers: boolean;
  intervals: boolean;
  part: 'all' | 'usage-point' | 'meter-readings' | 'usage-summary' | { blocksOf: number };
}

const BASE = '/espi/1_1/resource';
const WHOLE: EspiResource = {
  subscriptionId: 1,
  usagePointId: 1,
  registers: true,
  intervals: true,
  part: 'all',
};

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

/** ESPI flowDirection of a stored channel: 1 forward (delivered, import), 19 reverse (received, export). */
const FLOW_OF_CHANNEL: Record<number, number> = { 1: 1, 2: 19 };
/** QualityOfReading 11: derived (the interval energies computed from registers). */
const DERIVED_QUALITY = 11;

function readingType(
  kind: 'cumulative' | 'delta',
  channel: number,
  intervalSeconds: number,
  isDerived: boolean,
): string {
  const accumulation = kind === 'cumulative' ? 1 : 4;
  const quality = isDerived ? `<espi:defaultQuality>${DERIVED_QUALITY}</espi:defaultQuality>` : '';
  const interval = kind === 'delta' ? `<espi:intervalLength>${intervalSeconds}</espi:intervalLength>` : '';
  return `<espi:ReadingType><espi:accumulationBehaviour>${accumulation}</espi:accumulationBehaviour><espi:commodity>1</espi:commodity>${quality}<espi:flowDirection>${FLOW_OF_CHANNEL[channel] ?? 1}</espi:flowDirection>${interval}<espi:kind>12</espi:kind><espi:powerOfTenMultiplier>-3</espi:powerOfTenMultiplier><espi:uom>72</espi:uom></espi:ReadingType>`;
}

/** ISO 4217 numbers of the currencies a tariff is most likely in (ESPI's Currency is the number). */
const CURRENCY_NUMBERS: Record<string, number> = {
  AUD: 36,
  BRL: 986,
  CAD: 124,
  CHF: 756,
  CNY: 156,
  CZK: 203,
  DKK: 208,
  EUR: 978,
  GBP: 826,
  HUF: 348,
  INR: 356,
  JPY: 392,
  MXN: 484,
  NOK: 578,
  NZD: 554,
  PLN: 985,
  RON: 946,
  SEK: 752,
  USD: 840,
  ZAR: 710,
};
/** QualityOfReading 8: estimated (some of the energy priced was estimated or substituted). */
const ESTIMATED_QUALITY = 8;

/**
 * ESPI's UsageSummary of a range: its billingPeriod, the bill (billToDate while the range runs to
 * now, else billLastPeriod) in hundred-thousandths of the currency, the currency's number, the
 * energy imported (mWh), the quality when estimated, when it was computed; electricity.
 */
function usageSummaryXml(facts: UsageSummaryFacts): string {
  const bill = Math.round(facts.total * 100_000);
  const currency = CURRENCY_NUMBERS[facts.currency];
  const consumption =
    facts.importMicro === null
      ? ''
      : `<espi:currentBillingPeriodOverAllConsumption><espi:powerOfTenMultiplier>-3</espi:powerOfTenMultiplier><espi:timeStamp>${seconds(facts.toMs)}</espi:timeStamp><espi:uom>72</espi:uom><espi:value>${Math.round(facts.importMicro)}</espi:value></espi:currentBillingPeriodOverAllConsumption>`;
  return [
    '<espi:UsageSummary>',
    `<espi:billingPeriod><espi:duration>${seconds(facts.toMs) - seconds(facts.fromMs)}</espi:duration><espi:start>${seconds(facts.fromMs)}</espi:start></espi:billingPeriod>`,
    facts.isToDate
      ? `<espi:billToDate>${bill}</espi:billToDate>`
      : `<espi:billLastPeriod>${bill}</espi:billLastPeriod>`,
    currency === undefined ? '' : `<espi:currency>${currency}</espi:currency>`,
    consumption,
    facts.isEstimated ? `<espi:qualityOfReading>${ESTIMATED_QUALITY}</espi:qualityOfReading>` : '',
    `<espi:statusTimeStamp>${seconds(facts.atMs)}</espi:statusTimeStamp>`,
    '<espi:commodity>1</espi:commodity>',
    '</espi:UsageSummary>',
  ].join('');
}

/** One MeterReading of the feed: a channel's registers, or its energy per interval. */
interface MeterReadingPlan {
  /** Its number in the feed's links: 1/2 import registers/energies, 3/4 export. */
  index: number;
  channel: number;
  kind: 'cumulative' | 'delta';
  /** Energies computed from the registers (no interval records). */
  isDerived: boolean;
  title: string;
  blocks: () => AsyncIterable<Block>;
}

function plans(request: EspiRequest): MeterReadingPlan[] {
  const { meter } = request;
  const list: MeterReadingPlan[] = [];
  for (const source of request.channels) {
    const { channel, registers, intervals } = source;
    const name = channel === 2 ? 'export' : 'import';
    const base = channel === 2 ? 2 : 0;
    if (registers)
      list.push({
        index: base + 1,
        channel,
        kind: 'cumulative',
        isDerived: false,
        title: `Register (${name}) of meter ${meter.meterNumber}`,
        blocks: () => dayBlocks(meter.timeZone, registerReadings(meter, registers())),
      });
    const energies = intervals
      ? () => recordReadings(intervals())
      : registers
        ? () => registerEnergies(request, registers)
        : undefined;
    if (energies)
      list.push({
        index: base + 2,
        channel,
        kind: 'delta',
        isDerived: !intervals,
        title: `Energy per interval (${name}) of meter ${meter.meterNumber}${intervals ? '' : ', from its registers'}`,
        blocks: () => dayBlocks(meter.timeZone, energies()),
      });
  }
  return list;
}

/** IntervalBlocks (local days) written between two turns of the event loop. */
const BLOCKS_BETWEEN_TURNS = 7;

/** The feed of one meter (Download My Data), written as it is read. */
export function espiDocument(request: EspiRequest): AsyncGenerator<string> {
  const { meter } = request;
  return espiFeed(`Readings of meter ${meter.meterNumber} at ${meter.locationName}`, request.selfHref, [
    request,
  ]);
}

/** A feed of the entries of one or more meters' requests (the resource API's Batch), written as it is read. */
export async function* espiFeed(
  title: string,
  selfHref: string,
  requests: EspiRequest[],
): AsyncGenerator<string> {
  const now = new Date().toISOString();
  yield `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:espi="http://naesb.org/espi">
  <id>urn:cm:${xmlEscape(selfHref)}</id>
  <title>${xmlEscape(title)}</title>
  <updated>${now}</updated>
  <link rel="self" type="application/atom+xml" href="${xmlEscape(selfHref)}"/>
`;
  for (const request of requests) yield* entries(request, now);
  yield '</feed>\n';
}

async function* entries(request: EspiRequest, now: string): AsyncGenerator<string> {
  const { meter } = request;
  const resource = request.resource ?? WHOLE;
  const POINT = `${BASE}/Subscription/${resource.subscriptionId}/UsagePoint/${resource.usagePointId}`;
  const TIME_PARAMETERS = `${BASE}/LocalTimeParameters/${resource.usagePointId}`;
  const time = localTimeParameters(meter.timeZone, localParts(request.fromMs, meter.timeZone).year);
  const isWhole = resource.part === 'all';
  const summary = request.usageSummary;
  if (isWhole || resource.part === 'usage-point') {
    yield entry(
      'UsagePoint',
      {
        self: POINT,
        related: [
          { href: `${POINT}/MeterReading`, kind: 'MeterReading', isFeed: true },
          ...(summary === undefined
            ? []
            : [{ href: `${POINT}/UsageSummary`, kind: 'UsageSummary', isFeed: true }]),
          { href: TIME_PARAMETERS, kind: 'LocalTimeParameters' },
        ],
      },
      meter.meterNumber,
      '<espi:UsagePoint><espi:ServiceCategory><espi:kind>0</espi:kind></espi:ServiceCategory></espi:UsagePoint>',
      now,
    );
    yield entry(
      'LocalTimeParameters',
      { self: TIME_PARAMETERS },
      meter.timeZone,
      `<espi:LocalTimeParameters><espi:dstEndRule>${time.dstEndRule}</espi:dstEndRule><espi:dstOffset>${time.dstOffset}</espi:dstOffset><espi:dstStartRule>${time.dstStartRule}</espi:dstStartRule><espi:tzOffset>${time.tzOffset}</espi:tzOffset></espi:LocalTimeParameters>`,
      now,
    );
  }
  if (resource.part === 'usage-point') return;
  if ((isWhole || resource.part === 'usage-summary') && summary)
    yield entry(
      'UsageSummary',
      { self: `${POINT}/UsageSummary/1` },
      `Cost of meter ${meter.meterNumber}`,
      usageSummaryXml(summary),
      now,
    );
  if (resource.part === 'usage-summary') return;
  const { part } = resource;
  const wanted = plans(request).filter(
    (plan) =>
      (plan.kind === 'cumulative' ? resource.registers : resource.intervals) &&
      (typeof part !== 'object' || part.blocksOf === plan.index),
  );
  for (const plan of wanted) {
    const reading = `${POINT}/MeterReading/${plan.index}`;
    // Each usage point's reading types are its own: numbered after the meter's (1–4 per meter).
    const type = `${BASE}/ReadingType/${(resource.usagePointId - 1) * 4 + plan.index}`;
    if (isWhole || part === 'meter-readings') {
      yield entry(
        'MeterReading',
        {
          self: reading,
          related: [
            { href: type, kind: 'ReadingType' },
            { href: `${reading}/IntervalBlock`, kind: 'IntervalBlock', isFeed: true },
          ],
        },
        plan.title,
        '<espi:MeterReading/>',
        now,
      );
      yield entry(
        'ReadingType',
        { self: type },
        `${plan.kind === 'cumulative' ? 'Cumulative energy' : 'Energy per interval'}, mWh`,
        readingType(plan.kind, plan.channel, meter.intervalMinutes * 60, plan.isDerived),
        now,
      );
    }
    if (part === 'meter-readings') continue;
    let block = 0;
    for await (const { startMs, durationMs, readings } of plan.blocks()) {
      block++;
      // The blocks are made in one run of promises, which other requests cannot get between:
      // every week, the event loop gets a turn (a year of ESPI once held it for up to 190 ms).
      if (block % BLOCKS_BETWEEN_TURNS === 0) await turnOfTheLoop();
      yield entry(
        'IntervalBlock',
        { self: `${reading}/IntervalBlock/${block}` },
        '',
        `<espi:IntervalBlock><espi:interval><espi:duration>${seconds(durationMs)}</espi:duration><espi:start>${seconds(startMs)}</espi:start></espi:interval>\n${readings}</espi:IntervalBlock>`,
        now,
      );
    }
  }
}

interface Block {
  startMs: number;
  durationMs: number;
  readings: string;
}

/** One value to write: its time, value in mWh and quality code (0 actual, 1 estimated, 2 substituted). */
interface Value {
  startMs: number;
  durationMs: number;
  value: number;
  quality: number;
}

/** The register as stored, after the CT multiplier: a reading is the register at an instant (duration 0). */
async function* registerReadings(
  meter: ExportMeter,
  pages: AsyncIterable<RegisterPage>,
): AsyncGenerator<Value> {
  for await (const page of pages)
    for (const [ms, micro, quality] of page)
      yield { startMs: ms, durationMs: 0, value: micro * meter.multiplier, quality };
}

/** The interval records as stored (energies already after the multiplier). */
async function* recordReadings(pages: AsyncIterable<IntervalPage>): AsyncGenerator<Value> {
  for await (const page of pages)
    for (const [startMs, endMs, micro, quality] of page)
      yield { startMs, durationMs: endMs - startMs, value: micro, quality };
}

/** Values grouped in one block per local day of `zone` (each value in the day it starts in). */
async function* dayBlocks(zone: string, values: AsyncIterable<Value>): AsyncGenerator<Block> {
  let day: Block | undefined;
  for await (const { startMs, durationMs, value, quality } of values) {
    if (!day || startMs < day.startMs || startMs >= day.startMs + day.durationMs) {
      if (day) yield day;
      const dayStart = startOfLocal({ ...localParts(startMs, zone), hour: 0, minute: 0, second: 0 }, zone);
      const next = localParts(dayStart + DAY_MS + 12 * 3_600_000, zone);
      const dayEnd = startOfLocal({ year: next.year, month: next.month, day: next.day }, zone);
      day = { startMs: dayStart, durationMs: dayEnd - dayStart, readings: '' };
    }
    day.readings += intervalReading(
      startMs,
      durationMs,
      value,
      qualityXml(readingQualities[quality] ?? 'actual'),
    );
  }
  if (day) yield day;
}

/**
 * The energy between a channel's registers. Each page is walked with the last reading of the page
 * before it, so no interval is lost between pages.
 */
async function* registerEnergies(
  { meter, fromMs, toMs }: EspiRequest,
  registers: () => AsyncIterable<RegisterPage>,
): AsyncGenerator<Value> {
  const steps = new Steps();
  let carried: [number, number, number] | undefined;
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
        registerDigits: meter.registerDigits,
        intervalMs: meter.intervalMinutes * 60_000,
      },
      steps.reset(rows.length),
    );
    for (let i = 0; i < steps.length; i++) {
      const kind = steps.kind[i];
      if (kind !== StepKind.interval && kind !== StepKind.registerGap) continue;
      const start = steps.start[i] ?? 0;
      const flags = steps.flags[i] ?? 0;
      yield {
        startMs: start,
        durationMs: (steps.end[i] ?? start) - start,
        value: steps.energy[i] ?? 0,
        quality: flags & StepFlag.substituted ? 2 : flags & StepFlag.estimated ? 1 : 0,
      };
    }
  }
}
