import { because, type ImportReason } from '@cm/contracts/import-reasons.ts';
import type { Readable } from 'node:stream';
import sax from 'sax';
import type { MeterFacts } from '../directory/index.ts';
import { registerRangeMicro } from '../readings/index.ts';
import {
  checkInstant,
  ImportRefusal,
  mostCommon,
  type ParseContext,
  type ParsedItem,
  type StagedRow,
} from './import-rows.ts';

// ESPI codes (NAESB REQ.21 usage.xsd).
const UOM_WH = 72;
const DELTA_DATA = 4;
// QualityOfReading 11: derived (computed from other readings).
const DERIVED = 11;
const CUMULATIVE = new Set([1, 3, 9]); // bulkQuantity, cumulative, summation
const COMMODITY_ELECTRICITY = new Set([0, 1, 2]); // none given, electricity secondary / primary metered
const COMMODITY_NAMES = new Map([
  [4, 'air'],
  [7, 'natural gas'],
  [8, 'propane'],
  [9, 'potable water'],
  [10, 'steam'],
  [11, 'waste water'],
  [12, 'heating fluid'],
  [13, 'cooling fluid'],
]);
const SERVICE_NAMES = new Map([
  [1, 'gas'],
  [2, 'water'],
  [3, 'time'],
  [4, 'heat'],
  [5, 'refuse'],
  [6, 'sewerage'],
  [7, 'rates'],
  [8, 'TV licence'],
  [9, 'internet'],
]);
const UOM_NAMES = new Map([
  [38, 'W'],
  [42, 'm³'],
  [63, 'VAr'],
  [72, 'Wh'],
  [73, 'VArh'],
  [119, 'ft³'],
  [128, 'US gallons'],
  [169, 'therms'],
]);
// flowDirection: 1 forward (delivered to the customer), 19 reverse (received from the customer).
const CHANNEL_OF_FLOW = new Map([
  [1, 1],
  [19, 2],
]);
// ReadingQuality codes: estimated (8 reference day, 9 interpolation, 12 projected) and
// substituted (7 manually edited, 11 derived, 13 mixed, 15 normalised); the others are actual.
const ESTIMATED_QUALITY = new Set([8, 9, 12]);
const SUBSTITUTED_QUALITY = new Set([7, 11, 13, 15]);

/** ESPI values are numbers and short labels: no element's text may be longer (the parser would hold it). */
export const MAX_ESPI_TEXT = 65_536;

interface ReadingTypeFacts {
  uom: number | undefined;
  powerOfTen: number;
  accumulation: number | undefined;
  commodity: number | undefined;
  flowDirection: number | undefined;
  /** QualityOfReading of values without a ReadingQuality (11: derived from other readings). */
  defaultQuality: number | undefined;
  intervalLength: number | undefined;
  /** Read by its evidence as interval energies: the seconds a reading of duration 0 covers. */
  evidenceSeconds?: number;
}

/** One Atom entry, as far as the first pass needs it. */
interface EntryFacts {
  self: string | undefined;
  up: string | undefined;
  related: string[];
  title: string;
  kind: 'UsagePoint' | 'MeterReading' | 'ReadingType' | 'IntervalBlock' | 'other';
  serviceKind: number | undefined;
  readingType: ReadingTypeFacts | undefined;
}

/** Where in the file each resource is and what it says (the first pass). */
interface EspiIndex {
  usagePoints: Map<string, { title: string; serviceKind: number | undefined; related: string[] }>;
  meterReadings: Map<string, { readingType: string | undefined }>;
  readingTypes: Map<string, ReadingTypeFacts>;
  /** Every ReadingType in document order, with the entry index it came at. */
  readingTypeOrder: Array<{ at: number; facts: ReadingTypeFacts }>;
  /** The IntervalBlock entries, by their position among the entries. */
  blocks: Map<number, EntryFacts>;
  /** What the IntervalReadings of each IntervalBlock look like, by the block's position. */
  blockStats: Map<number, BlockStats>;
  /** Every MeterReading in document order, with the entry index it came at. */
  meterReadingOrder: Array<{ at: number; href: string; readingType: string | undefined }>;
}

/** Options the file needs from the administrator. */
export interface EspiOptions {
  /** UsagePoint (its id, e.g. `1`, or its title) → meter number, for a file of several. */
  usagePoints?: Readonly<Record<string, string>> | undefined;
  /** For ReadingTypes without an accumulationBehaviour: what the values are (default: interval deltas). */
  accumulation?: 'delta' | 'cumulative' | undefined;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
/** An href as a path to compare by: no scheme and host, no leading slash. */
const pathOf = (href: string) => href.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/^\/+/, '');
const meterReadingOf = (block: EntryFacts) =>
  block.up?.replace(/\/IntervalBlock\/?$/, '') ?? block.self?.replace(/\/IntervalBlock\/[^/]*$/, '');
const pointId = (href: string) => /\/UsagePoint\/([^/]+)/.exec(href)?.[1];

/**
 * The UsagePoint a MeterReading belongs to: the one whose links name it, else the one its href
 * sits under, else the one with the same UsagePoint id (feeds write `BillingAccount/…/UsagePoint/X`
 * for the point and `User/…/UsagePoint/X/MeterReading/1` for its readings).
 */
function usagePointOf(index: EspiIndex, meterReading: string | undefined): string | undefined {
  if (!meterReading) return undefined;
  const points = [...index.usagePoints.entries()];
  const linked = points.find(([, point]) => point.related.some((href) => meterReading.startsWith(href)));
  if (linked) return linked[0];
  const under = points.find(([href]) => meterReading.startsWith(`${href}/`));
  if (under) return under[0];
  const id = pointId(meterReading);
  return points.find(([href]) => id !== undefined && pointId(href) === id)?.[0];
}

/**
 * Runs sax over the file: DTDs are refused outright, so no entity is ever expanded (no billion
 * laughs, no external entities); the parser is strict, so an undefined entity or a truncated file
 * refuses the whole file. Calls `onEntry` at the end of each entry with its facts and readings.
 */
async function* walkEspi(
  input: Readable,
  on: {
    /** At the end of each entry, with its position among the entries. */
    entry?: (entry: EntryFacts, index: number) => void;
    /** At the end of each IntervalReading, with the position of its entry: what to hand on (nothing: passed over). */
    reading?: (reading: RawReading, entryIndex: number) => ParsedItem | undefined;
  },
): AsyncGenerator<ParsedItem[]> {
  const parser = sax.parser(true, { trim: true, position: true });
  const stack: string[] = [];
  const pending: ParsedItem[] = [];
  let failure: ImportRefusal | undefined;
  let entry: EntryFacts | undefined;
  let reading: RawReading | undefined;
  let entries = 0;
  let text = '';
  let sawRoot = false;
  const fail = (message: string) => {
    failure ??= new ImportRefusal(message);
  };
  const newEntry = (): EntryFacts => ({
    self: undefined,
    up: undefined,
    related: [],
    title: '',
    kind: 'other',
    serviceKind: undefined,
    readingType: undefined,
  });
  parser.ondoctype = () => fail('The XML has a DOCTYPE: DTDs and entity declarations are not accepted.');
  parser.onprocessinginstruction = (instruction) => {
    if (instruction.name.toUpperCase() === 'ENTITY')
      fail('The XML declares entities, which are not accepted.');
  };
  parser.onerror = (error) => {
    fail(`The XML is not well-formed (line ${parser.line + 1}): ${error.message.split('\n')[0] ?? ''}`);
  };
  parser.onopentag = (tag) => {
    const name = localName(tag.name);
    if (!sawRoot) {
      sawRoot = true;
      if (name !== 'feed' && name !== 'entry')
        fail(`The root element is <${name}>: expected an Atom <feed> or <entry>.`);
    }
    stack.push(name);
    text = '';
    if (name === 'entry') entry = newEntry();
    if (!entry) return;
    if (name === 'link') {
      const href = typeof tag.attributes.href === 'string' ? pathOf(tag.attributes.href) : undefined;
      const rel = tag.attributes.rel;
      if (href && rel === 'self') entry.self = href;
      else if (href && rel === 'up') entry.up = href;
      else if (href && rel === 'related') entry.related.push(href);
    }
    if (stack.at(-2) === 'content') {
      if (
        name === 'UsagePoint' ||
        name === 'MeterReading' ||
        name === 'ReadingType' ||
        name === 'IntervalBlock'
      )
        entry.kind = name;
    }
    if (name === 'ReadingType')
      entry.readingType = {
        uom: undefined,
        powerOfTen: 0,
        accumulation: undefined,
        commodity: undefined,
        flowDirection: undefined,
        defaultQuality: undefined,
        intervalLength: undefined,
      };
    if (name === 'IntervalReading' && on.reading) reading = { line: parser.line + 1 };
  };
  const addText = (value: string) => {
    if (text.length + value.length > MAX_ESPI_TEXT) {
      fail(
        `line ${parser.line + 1}: <${stack.at(-1) ?? '?'}> holds more than ${MAX_ESPI_TEXT.toLocaleString('en')} characters of text; ESPI values are short.`,
      );
      return;
    }
    text += value;
  };
  parser.ontext = addText;
  parser.oncdata = addText;
  parser.onclosetag = () => {
    const name = stack.pop() ?? '';
    const parent = stack.at(-1);
    if (entry) {
      if (name === 'title' && parent === 'entry') entry.title = text;
      if (name === 'kind' && parent === 'ServiceCategory')
        entry.serviceKind = text === '' ? undefined : Number(text);
      const type = entry.readingType;
      if (type && parent === 'ReadingType') {
        if (name === 'uom') type.uom = Number(text);
        if (name === 'powerOfTenMultiplier') type.powerOfTen = Number(text);
        if (name === 'accumulationBehaviour') type.accumulation = Number(text);
        if (name === 'commodity') type.commodity = Number(text);
        if (name === 'flowDirection') type.flowDirection = Number(text);
        if (name === 'defaultQuality') type.defaultQuality = Number(text);
        if (name === 'intervalLength') type.intervalLength = Number(text);
      }
      if (reading) {
        if (parent === 'timePeriod' && name === 'start') reading.start = text;
        if (parent === 'timePeriod' && name === 'duration') reading.duration = text;
        if (parent === 'IntervalReading' && name === 'value') reading.value = text;
        if (parent === 'ReadingQuality' && name === 'quality') reading.quality = text;
      }
      if (name === 'IntervalReading' && reading) {
        const item = on.reading?.(reading, entries);
        if (item) pending.push(item);
        reading = undefined;
      }
      if (name === 'entry') {
        on.entry?.(entry, entries);
        entries++;
        entry = undefined;
      }
    }
    text = '';
  };

  input.setEncoding('utf8');
  for await (const chunk of input) {
    if (typeof chunk === 'string') parser.write(chunk);
    if (failure) throw failure;
    if (pending.length > 0) yield pending.splice(0);
  }
  parser.close();
  if (!failure && stack.length > 0)
    fail(`The XML ends before <${stack[0] ?? ''}> is closed: the file is truncated.`);
  if (!failure && !sawRoot) fail('The file is empty.');
  if (failure) throw failure;
  if (pending.length > 0) yield pending.splice(0);
}

interface RawReading {
  line: number;
  start?: string;
  duration?: string;
  value?: string;
  quality?: string;
}

/** How the values of a block's IntervalReadings run, in document order (the evidence of what they are). */
interface BlockStats {
  count: number;
  zeroDurations: number;
  /** Steps from one value to the next, and how many of them fall. */
  steps: number;
  falls: number;
  firstValue: number;
  lastValue: number;
  lastStart: number;
  /** How often each spacing between consecutive starts (seconds) occurs. */
  spacing: Map<number, number>;
}

const newStats = (): BlockStats => ({
  count: 0,
  zeroDurations: 0,
  steps: 0,
  falls: 0,
  firstValue: Number.NaN,
  lastValue: Number.NaN,
  lastStart: Number.NaN,
  spacing: new Map(),
});

function noteReading(stats: BlockStats, raw: RawReading): void {
  const value = Number(raw.value);
  const start = Number(raw.start);
  if (!Number.isFinite(value) || !Number.isFinite(start)) return;
  if (stats.count === 0) stats.firstValue = value;
  else {
    stats.steps++;
    if (value < stats.lastValue) stats.falls++;
    const spacing = start - stats.lastStart;
    if (spacing > 0) stats.spacing.set(spacing, (stats.spacing.get(spacing) ?? 0) + 1);
  }
  stats.count++;
  if (Number(raw.duration ?? 0) === 0) stats.zeroDurations++;
  stats.lastValue = value;
  stats.lastStart = start;
}

/** The first pass: every UsagePoint, MeterReading and ReadingType, wherever they are in the file. */
async function indexEspi(input: Readable): Promise<EspiIndex> {
  const index: EspiIndex = {
    usagePoints: new Map(),
    meterReadings: new Map(),
    readingTypes: new Map(),
    readingTypeOrder: [],
    blocks: new Map(),
    blockStats: new Map(),
    meterReadingOrder: [],
  };
  const entry = (entry: EntryFacts, at: number) => {
    const self = entry.self ?? `#entry-${at}`;
    if (entry.kind === 'MeterReading')
      index.meterReadingOrder.push({
        at,
        href: self,
        readingType: entry.related.find((href) => /\/ReadingType\//.test(href)),
      });
    if (entry.kind === 'UsagePoint')
      index.usagePoints.set(self, {
        title: entry.title,
        serviceKind: entry.serviceKind,
        related: entry.related,
      });
    if (entry.kind === 'MeterReading')
      index.meterReadings.set(self, {
        readingType: entry.related.find((href) => /\/ReadingType\//.test(href)),
      });
    if (entry.kind === 'ReadingType' && entry.readingType) {
      index.readingTypes.set(self, entry.readingType);
      index.readingTypeOrder.push({ at, facts: entry.readingType });
    }
    if (entry.kind === 'IntervalBlock') index.blocks.set(at, entry);
  };
  const reading = (raw: RawReading, at: number) => {
    let stats = index.blockStats.get(at);
    if (!stats) index.blockStats.set(at, (stats = newStats()));
    noteReading(stats, raw);
    return undefined;
  };
  const walk = walkEspi(input, { entry, reading });
  // The first pass yields nothing: run it to the end.
  while (!(await walk.next()).done);
  return index;
}

/**
 * The ReadingType href of each IntervalBlock whose MeterReading link names several MeterReadings
 * (a feed with its ids redacted writes every MeterReading as `…/MeterReading/REDACTED`): by
 * document order, each MeterReading's blocks following it, with a note. Refused, naming the
 * ambiguity, when that order cannot tell them apart: a block before them, a MeterReading no block
 * follows, or ReadingTypes that do not tell them apart either. Never merged or swapped.
 */
function readingTypesByOrder(index: EspiIndex, notes: string[]): Map<number, string> {
  const byBlock = new Map<number, string>();
  const groups = new Map<string, EspiIndex['meterReadingOrder']>();
  for (const reading of index.meterReadingOrder) {
    const group = groups.get(reading.href) ?? [];
    group.push(reading);
    groups.set(reading.href, group);
  }
  for (const [href, group] of groups) {
    if (group.length < 2) continue;
    const shared = `${group.length} MeterReadings share the link "${href.slice(0, 120)}"`;
    const types = group.map((reading) => reading.readingType);
    if (
      types.some((type) => type === undefined || !index.readingTypes.has(type)) ||
      new Set(types).size < types.length
    )
      throw new ImportRefusal(
        `${shared}, and their ReadingType links do not name distinct ReadingTypes of the file: which readings are which cannot be told.`,
      );
    const blocks = [...index.blocks.entries()].filter(([, block]) => meterReadingOf(block) === href);
    const followed = new Set<number>();
    for (const [at] of blocks) {
      const owner = group.filter((reading) => reading.at < at).at(-1);
      if (!owner)
        throw new ImportRefusal(
          `${shared}, and an IntervalBlock (entry ${at + 1}) comes before all of them: which one it belongs to cannot be told.`,
        );
      followed.add(owner.at);
      byBlock.set(at, owner.readingType ?? '');
    }
    const alone = group.find((reading) => !followed.has(reading.at));
    if (alone)
      throw new ImportRefusal(
        `${shared}, and no IntervalBlock follows the one at entry ${alone.at + 1}: which blocks are whose cannot be told.`,
      );
    notes.push(
      `${shared}: told apart by the order of the file, each MeterReading's IntervalBlocks following it (${group
        .map((reading) => describeFlow(index.readingTypes.get(reading.readingType ?? '')))
        .join(', then ')}).`,
    );
  }
  return byBlock;
}

// A register falls only at a rollover or an exchange, interval energies about every other step:
// values that fall in at least one step of 5 (and 3 times) are not a register's, whatever the
// ReadingType says. Fewer falls stay a register's, each falling line refused on its own.
const FALLS_OFTEN = (falls: number, steps: number) => falls >= 3 && falls * 5 >= steps;

const describeSeconds = (seconds: number) =>
  seconds % 60 === 0 ? `${seconds / 60}-minute` : `${seconds}-second`;

/**
 * Reads a ReadingType labelled cumulative by its evidence: when its values fall often and every
 * reading's duration is 0, they are the energies of intervals (of its intervalLength, else the
 * spacing of their starts), said in a note; when they fall often but readings have durations, the
 * evidence is mixed and the file is refused. Never stored as a falling register.
 */
function readByEvidence(
  index: EspiIndex,
  typeOf: (block: EntryFacts, at: number) => ReadingTypeFacts | undefined,
  notes: string[],
): void {
  const tallies = new Map<ReadingTypeFacts, BlockStats>();
  for (const [at, block] of index.blocks) {
    const facts = typeOf(block, at);
    const stats = index.blockStats.get(at);
    if (!facts || !stats || stats.count === 0 || !CUMULATIVE.has(facts.accumulation ?? Number.NaN)) continue;
    const tally = tallies.get(facts);
    if (!tally) {
      tallies.set(facts, { ...stats, spacing: new Map(stats.spacing) });
      continue;
    }
    // The step from the last value of the block before to the first of this one.
    tally.steps += stats.steps + 1;
    tally.falls += stats.falls + (stats.firstValue < tally.lastValue ? 1 : 0);
    tally.count += stats.count;
    tally.zeroDurations += stats.zeroDurations;
    tally.lastValue = stats.lastValue;
    for (const [spacing, n] of stats.spacing)
      tally.spacing.set(spacing, (tally.spacing.get(spacing) ?? 0) + n);
  }
  for (const [facts, tally] of tallies) {
    if (!FALLS_OFTEN(tally.falls, tally.steps)) continue;
    const label = `The ReadingType says cumulative (accumulationBehaviour ${facts.accumulation}), but its values fall ${tally.falls} times in ${tally.steps} steps`;
    if (tally.zeroDurations < tally.count)
      throw new ImportRefusal(
        `${label}, and ${tally.count - tally.zeroDurations} of its ${tally.count} readings have a duration: whether they are registers or interval energies cannot be told from the file.`,
      );
    const given =
      facts.intervalLength !== undefined && facts.intervalLength > 0 ? facts.intervalLength : undefined;
    const seconds = given ?? mostCommon(tally.spacing);
    if (seconds === null || !Number.isSafeInteger(seconds))
      throw new ImportRefusal(
        `${label}, and its readings have no duration nor a regular spacing: they cannot be read.`,
      );
    facts.accumulation = DELTA_DATA;
    facts.evidenceSeconds = seconds;
    notes.push(
      `${label} and every reading's duration is 0: they were read as the energy of each ${describeSeconds(seconds)} interval (${given ? 'its intervalLength' : 'the spacing of their starts'}), not as a register.`,
    );
  }
}

const describeFlow = (type: ReadingTypeFacts | undefined) =>
  type?.flowDirection === 19
    ? 'received (flowDirection 19)'
    : `delivered (flowDirection ${type?.flowDirection ?? 1})`;

const describeUom = (uom: number | undefined) =>
  uom === undefined ? 'no unit' : `uom ${uom}${UOM_NAMES.has(uom) ? ` (${UOM_NAMES.get(uom)})` : ''}`;

/**
 * Reads Green Button ESPI Atom XML in two passes over the file (it is on disk): the first finds
 * every UsagePoint, MeterReading and ReadingType wherever they are (Atom entries come in any
 * order, and links say what belongs to what), the second reads the IntervalBlocks a block at a
 * time. Several UsagePoints go to several meters; delivered and received (flowDirection 1 and 19)
 * to the import and export channels; gas and water are refused naming commodity and unit.
 */
export async function* parseEspi(
  open: () => Readable,
  context: ParseContext,
  options: EspiOptions = {},
): AsyncGenerator<ParsedItem[]> {
  const index = await indexEspi(open());
  const resolveMeter = meterResolver(index, context, options);
  const byOrder = readingTypesByOrder(index, context.notes);
  const checked = new Set<ReadingTypeFacts>();
  const typeOf = (block: EntryFacts, at: number): ReadingTypeFacts | undefined => {
    const meterReading = meterReadingOf(block);
    const href =
      byOrder.get(at) ?? (meterReading ? index.meterReadings.get(meterReading)?.readingType : undefined);
    const linked = href ? index.readingTypes.get(href) : undefined;
    return (
      linked ??
      (index.readingTypes.size === 1 ? [...index.readingTypes.values()][0] : undefined) ??
      index.readingTypeOrder.filter((type) => type.at < at).at(-1)?.facts
    );
  };
  readByEvidence(index, typeOf, context.notes);
  const factsFor = (block: EntryFacts, at: number): ReadingTypeFacts => {
    const facts = typeOf(block, at);
    if (!facts) {
      throw new ImportRefusal(
        index.readingTypes.size === 0
          ? 'The file has IntervalBlocks but no ReadingType: the unit of its values is unknown.'
          : `An IntervalBlock (${block.self ?? 'no link'}) names no MeterReading whose ReadingType the file holds, and the file has ${index.readingTypes.size} ReadingTypes.`,
      );
    }
    if (!checked.has(facts)) {
      checkReadingType(facts, context, options);
      checked.add(facts);
    }
    return facts;
  };
  const isDerived = derivedFromRegisters(index, context);
  // A block's facts, found once per entry from the first pass.
  let current: { at: number; facts: ReadingTypeFacts; meter: MeterFacts; isDerived: boolean } | undefined;
  const reading = (raw: RawReading, at: number): ParsedItem | undefined => {
    if (current?.at !== at) {
      const block = index.blocks.get(at);
      if (!block) return { line: raw.line, reason: because('outsideBlock') };
      const meterReading = meterReadingOf(block);
      current = {
        at,
        facts: factsFor(block, at),
        meter: resolveMeter(usagePointOf(index, meterReading)),
        isDerived: isDerived(meterReading),
      };
    }
    if (current.isDerived) return undefined;
    const item = toItem(raw, current.facts, current.meter, context);
    return 'reason' in item ? item : { row: item };
  };
  yield* walkEspi(open(), { reading });
}

/**
 * Whether a MeterReading's values are derived from registers the file holds beside them: interval
 * deltas whose ReadingType says `defaultQuality` 11 (derived), of a UsagePoint and flowDirection
 * whose cumulative registers are in the file too (as CM's own export writes the energy between
 * registers). Those are passed over, with a note: storing them would add the registers' differences
 * as readings of their own.
 */
function derivedFromRegisters(index: EspiIndex, context: ParseContext) {
  const typeOf = (meterReading: string | undefined) => {
    const href = meterReading ? index.meterReadings.get(meterReading)?.readingType : undefined;
    return href ? index.readingTypes.get(href) : undefined;
  };
  const key = (meterReading: string, type: ReadingTypeFacts) =>
    `${usagePointOf(index, meterReading) ?? ''} ${type.flowDirection ?? 1}`;
  const withRegisters = new Set<string>();
  for (const meterReading of index.meterReadings.keys()) {
    const type = typeOf(meterReading);
    if (type?.accumulation !== undefined && CUMULATIVE.has(type.accumulation))
      withRegisters.add(key(meterReading, type));
  }
  const noted = new Set<string>();
  return (meterReading: string | undefined): boolean => {
    const type = typeOf(meterReading);
    if (!meterReading || !type || type.accumulation !== DELTA_DATA || type.defaultQuality !== DERIVED)
      return false;
    if (!withRegisters.has(key(meterReading, type))) return false;
    if (!noted.has(meterReading)) {
      noted.add(meterReading);
      context.notes.push(
        `${meterReading}: energies derived from the registers of the same file (ReadingType defaultQuality 11) were not stored; the registers were.`,
      );
    }
    return true;
  };
}

/** The meter each UsagePoint's readings go to. */
function meterResolver(index: EspiIndex, context: ParseContext, options: EspiOptions) {
  const points = [...index.usagePoints.entries()];
  for (const [, point] of points) {
    if (point.serviceKind !== undefined && !Number.isNaN(point.serviceKind) && point.serviceKind !== 0) {
      const service = SERVICE_NAMES.get(point.serviceKind) ?? `ServiceCategory kind ${point.serviceKind}`;
      const uoms = [...new Set([...index.readingTypes.values()].map((type) => describeUom(type.uom)))].join(
        ', ',
      );
      throw new ImportRefusal(
        `UsagePoint "${point.title.slice(0, 60)}" is ${service} (ServiceCategory kind ${point.serviceKind})${uoms ? `, with ${uoms}` : ''}: Check Meter imports electricity only.`,
      );
    }
  }
  const known = (meterNumber: string): MeterFacts => {
    const meter = context.meters.get(meterNumber);
    if (!meter) throw new ImportRefusal(`Unknown meter number "${meterNumber.slice(0, 64)}".`);
    return meter;
  };
  if (points.length <= 1) {
    if (!context.meterNumber) {
      const title = points[0]?.[1].title;
      const named = title ? context.meters.get(title) : undefined;
      if (named) return () => named;
      throw new ImportRefusal('An ESPI file names no meter: give the meterNumber option.');
    }
    const meter = known(context.meterNumber);
    return () => meter;
  }
  if (context.meterNumber) {
    const named = points.map(([href, point]) => `"${point.title || (pointId(href) ?? href)}"`.slice(0, 62));
    throw new ImportRefusal(
      `This file holds ${points.length} UsagePoints (${named.slice(0, 10).join(', ')}${points.length > 10 ? ', …' : ''}): meterNumber ${context.meterNumber.slice(0, 64)} would put all their readings on one meter. Map each to a meter instead (usagePoints option, by id or title).`,
    );
  }
  const byPoint = new Map<string, MeterFacts>();
  const unmapped: string[] = [];
  for (const [href, point] of points) {
    const id = pointId(href) ?? href;
    const meterNumber =
      options.usagePoints?.[id] ??
      options.usagePoints?.[point.title] ??
      (context.meters.has(point.title) ? point.title : undefined);
    if (meterNumber === undefined) unmapped.push(`"${point.title || id}" (UsagePoint ${id})`);
    else byPoint.set(href, known(meterNumber));
  }
  if (unmapped.length > 0) {
    throw new ImportRefusal(
      `This file holds ${points.length} UsagePoints; map each to a meter (usagePoints option, by id or title), or name them after meter numbers. Not mapped: ${unmapped.slice(0, 10).join(', ')}.`,
    );
  }
  return (usagePoint: string | undefined) => {
    const meter = usagePoint ? byPoint.get(usagePoint) : undefined;
    if (!meter)
      throw new ImportRefusal('An IntervalBlock belongs to no UsagePoint of the file: its meter is unknown.');
    return meter;
  };
}

function checkReadingType(type: ReadingTypeFacts, context: ParseContext, options: EspiOptions): void {
  if (type.commodity !== undefined && !COMMODITY_ELECTRICITY.has(type.commodity)) {
    const commodity = COMMODITY_NAMES.get(type.commodity) ?? `commodity ${type.commodity}`;
    throw new ImportRefusal(
      `ReadingType is ${commodity} (commodity ${type.commodity}), ${describeUom(type.uom)}: Check Meter imports electricity readings only.`,
    );
  }
  if (type.flowDirection !== undefined && !CHANNEL_OF_FLOW.has(type.flowDirection)) {
    throw new ImportRefusal(
      `ReadingType flowDirection ${type.flowDirection} is not supported: expected 1 (delivered) or 19 (received).`,
    );
  }
  if (type.uom !== UOM_WH) {
    throw new ImportRefusal(
      `ReadingType ${describeUom(type.uom)} is not supported: only 72 (Wh) electricity readings can be imported.`,
    );
  }
  if (!Number.isInteger(type.powerOfTen) || Math.abs(type.powerOfTen) > 9)
    throw new ImportRefusal('ReadingType powerOfTenMultiplier is not a small whole number.');
  if (type.accumulation === undefined || Number.isNaN(type.accumulation)) {
    // Said once in the report; the administrator can say otherwise (accumulation option).
    const isCumulative = options.accumulation === 'cumulative';
    type.accumulation = isCumulative ? 1 : DELTA_DATA;
    context.notes.push(
      isCumulative
        ? 'A ReadingType gives no accumulationBehaviour: its values were read as cumulative registers, as asked.'
        : 'A ReadingType gives no accumulationBehaviour: its values were read as interval deltas (the energy of each interval); say accumulation=cumulative if they are registers.',
    );
  } else if (type.accumulation !== DELTA_DATA && !CUMULATIVE.has(type.accumulation)) {
    throw new ImportRefusal(
      `ReadingType accumulationBehaviour ${type.accumulation} is not supported: expected 4 (delta), 1, 3 or 9 (cumulative).`,
    );
  }
}

const isIntervalType = (type: ReadingTypeFacts) => type.accumulation === DELTA_DATA;

function toItem(
  r: RawReading,
  type: ReadingTypeFacts,
  meter: MeterFacts,
  context: ParseContext,
): StagedRow | { line: number; reason: ImportReason } {
  const start = Number(r.start);
  const duration = Number(r.duration ?? 0);
  const value = Number(r.value);
  if (!r.start || !Number.isSafeInteger(start))
    return {
      line: r.line,
      reason: because('notEpochSeconds', { value: (r.start ?? '').slice(0, 30) }),
    };
  if (!Number.isSafeInteger(duration) || duration < 0)
    return { line: r.line, reason: because('badDuration') };
  if (r.value === undefined || !Number.isSafeInteger(value))
    return { line: r.line, reason: because('notAWholeNumber', { value: (r.value ?? '').slice(0, 30) }) };
  if (value < 0) return { line: r.line, reason: because('negative', { field: 'value' }) };
  const isInterval = isIntervalType(type);
  // A reading read by the evidence as an interval energy covers the interval its ReadingType found.
  const span = isInterval && duration === 0 ? (type.evidenceSeconds ?? 0) : duration;
  if (isInterval && span === 0) return { line: r.line, reason: because('needsDuration') };
  const startMs = start * 1000;
  const endMs = (start + span) * 1000;
  // Cumulative readings stand at the end of their period; interval readings cover it.
  const problem = isInterval
    ? checkInstant(meter, startMs, context.nowMs, endMs)
    : checkInstant(meter, endMs, context.nowMs);
  if (problem) return { line: r.line, reason: problem };
  // value × 10^powerOfTen Wh = value × 10^(powerOfTen + 3) millionths of a kWh, of real energy;
  // the register counts before the CT multiplier.
  const energyMicro = value * 10 ** (type.powerOfTen + 3);
  const micro = Math.round(isInterval ? energyMicro : energyMicro / meter.multiplier);
  if (!Number.isSafeInteger(micro))
    return { line: r.line, reason: because('tooLarge', { value: r.value.slice(0, 30) }) };
  if (!isInterval && micro >= registerRangeMicro(meter.registerDigits)) {
    return {
      line: r.line,
      reason: because('registerValueTooLarge', {
        value: micro / 1e6,
        meterNumber: meter.meterNumber,
        digits: meter.registerDigits,
      }),
    };
  }
  const code = r.quality === undefined ? 0 : Number(r.quality);
  return {
    line: r.line,
    meterId: meter.id,
    channel: CHANNEL_OF_FLOW.get(type.flowDirection ?? 1) ?? 1,
    kind: isInterval ? 'interval' : 'register',
    atMs: isInterval ? startMs : endMs,
    endMs: isInterval ? endMs : null,
    micro,
    quality: ESTIMATED_QUALITY.has(code) ? 1 : SUBSTITUTED_QUALITY.has(code) ? 2 : 0,
  };
}
