import type { Readable } from 'node:stream';
import sax from 'sax';
import { registerRangeMicro } from '../readings/register-value.ts';
import {
  checkInstant,
  ImportRefusal,
  type ParseContext,
  type ParsedItem,
  type StagedRow,
} from './import-rows.ts';

// ESPI codes (NAESB REQ.21 usage.xsd).
const UOM_WH = 72;
const DELTA_DATA = 4;
const CUMULATIVE = new Set([1, 3, 9]); // bulkQuantity, cumulative, summation
const COMMODITY_ELECTRICITY = new Set([0, 1]); // none given, electricity SecondaryMetered
// flowDirection: 1 forward (delivered to the customer), 19 reverse (received from the customer).
const CHANNEL_OF_FLOW = new Map([
  [1, 1],
  [19, 2],
]);
// ReadingQuality codes: estimated (8 reference day, 9 interpolation, 12 projected) and
// substituted (7 manually edited, 11 derived, 13 mixed, 15 normalised); the others are actual.
const ESTIMATED_QUALITY = new Set([8, 9, 12]);
const SUBSTITUTED_QUALITY = new Set([7, 11, 13, 15]);

interface ReadingTypeFacts {
  uom: number | undefined;
  powerOfTen: number;
  accumulation: number | undefined;
  commodity: number | undefined;
  flowDirection: number | undefined;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
/** ESPI values are numbers and short labels: no element's text may be longer (the parser would hold it). */
export const MAX_ESPI_TEXT = 65_536;

/**
 * Reads Green Button ESPI Atom XML as a stream. DTDs are refused outright, so no entity is ever
 * expanded (no billion laughs, no external entities); the parser is strict, so an undefined
 * entity or a truncated file refuses the whole file. Readings follow the last ReadingType seen.
 */
export async function* parseEspi(input: Readable, context: ParseContext): AsyncGenerator<ParsedItem[]> {
  const meter = context.meterNumber ? context.meters.get(context.meterNumber) : undefined;
  if (!context.meterNumber)
    throw new ImportRefusal('An ESPI file names no meter: give the meterNumber option.');
  if (!meter) throw new ImportRefusal(`Unknown meter number "${context.meterNumber}".`);

  const parser = sax.parser(true, { trim: true, position: true });
  const stack: string[] = [];
  const pending: ParsedItem[] = [];
  let failure: ImportRefusal | undefined;
  let readingType: ReadingTypeFacts | undefined;
  let current: ReadingTypeFacts | undefined;
  let reading:
    { line: number; start?: string; duration?: string; value?: string; quality?: string } | undefined;
  let text = '';
  let sawRoot = false;

  const fail = (message: string) => {
    failure ??= new ImportRefusal(message);
  };
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
    if (name === 'ReadingType')
      current = {
        uom: undefined,
        powerOfTen: 0,
        accumulation: undefined,
        commodity: undefined,
        flowDirection: undefined,
      };
    if (name === 'IntervalReading') reading = { line: parser.line + 1 };
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
    const parent = stack[stack.length - 1];
    if (current && parent === 'ReadingType') {
      if (name === 'uom') current.uom = Number(text);
      if (name === 'powerOfTenMultiplier') current.powerOfTen = Number(text);
      if (name === 'accumulationBehaviour') current.accumulation = Number(text);
      if (name === 'commodity') current.commodity = Number(text);
      if (name === 'flowDirection') current.flowDirection = Number(text);
    }
    if (name === 'ReadingType' && current) {
      readingType = current;
      current = undefined;
    }
    if (reading) {
      if (parent === 'timePeriod' && name === 'start') reading.start = text;
      if (parent === 'timePeriod' && name === 'duration') reading.duration = text;
      if (parent === 'IntervalReading' && name === 'value') reading.value = text;
      if (parent === 'ReadingQuality' && name === 'quality') reading.quality = text;
    }
    if (name === 'IntervalReading' && reading) {
      if (!readingType)
        fail(`line ${reading.line}: an IntervalReading comes before any ReadingType; its unit is unknown.`);
      else if (checkReadingType(readingType, fail)) {
        const item = toItem(reading, readingType);
        pending.push('reason' in item ? item : { row: item });
      }
      reading = undefined;
    }
    text = '';
  };

  const toItem = (
    r: {
      line: number;
      start?: string | undefined;
      duration?: string | undefined;
      value?: string | undefined;
      quality?: string | undefined;
    },
    type: ReadingTypeFacts,
  ): StagedRow | { line: number; reason: string } => {
    const start = Number(r.start);
    const duration = Number(r.duration ?? 0);
    const value = Number(r.value);
    if (!r.start || !Number.isSafeInteger(start))
      return {
        line: r.line,
        reason: `timePeriod start "${(r.start ?? '').slice(0, 30)}" is not whole epoch seconds.`,
      };
    if (!Number.isSafeInteger(duration) || duration < 0)
      return { line: r.line, reason: 'timePeriod duration is not a whole number of seconds.' };
    if (r.value === undefined || !Number.isSafeInteger(value))
      return { line: r.line, reason: `value "${(r.value ?? '').slice(0, 30)}" is not a whole number.` };
    if (value < 0) return { line: r.line, reason: 'value must not be negative.' };
    const isInterval = type.accumulation === DELTA_DATA;
    if (isInterval && duration === 0)
      return { line: r.line, reason: 'an interval reading needs a timePeriod duration.' };
    const startMs = start * 1000;
    const endMs = (start + duration) * 1000;
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
      return { line: r.line, reason: `value "${r.value.slice(0, 30)}" is too large.` };
    if (!isInterval && micro >= registerRangeMicro(meter.registerDigits)) {
      return {
        line: r.line,
        reason: `the register (${micro / 1e6} kWh) does not fit meter ${meter.meterNumber}'s ${meter.registerDigits} digits.`,
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
  };

  const checkReadingType = (type: ReadingTypeFacts, onFail: (message: string) => void): boolean => {
    if (type.commodity !== undefined && !COMMODITY_ELECTRICITY.has(type.commodity)) {
      onFail(
        `ReadingType commodity ${type.commodity} (uom ${type.uom ?? 'missing'}) is not electricity: Check Meter imports electricity readings only.`,
      );
      return false;
    }
    if (type.flowDirection !== undefined && !CHANNEL_OF_FLOW.has(type.flowDirection)) {
      onFail(
        `ReadingType flowDirection ${type.flowDirection} is not supported: expected 1 (delivered) or 19 (received).`,
      );
      return false;
    }
    if (type.uom !== UOM_WH) {
      onFail(
        `ReadingType uom ${type.uom ?? '(missing)'} is not supported: only 72 (Wh) electricity readings can be imported.`,
      );
      return false;
    }
    if (!Number.isInteger(type.powerOfTen) || Math.abs(type.powerOfTen) > 9) {
      onFail('ReadingType powerOfTenMultiplier is not a small whole number.');
      return false;
    }
    const kind =
      type.accumulation === DELTA_DATA
        ? 'interval'
        : type.accumulation !== undefined && CUMULATIVE.has(type.accumulation)
          ? 'register'
          : undefined;
    if (!kind) {
      onFail(
        `ReadingType accumulationBehaviour ${type.accumulation ?? '(missing)'} is not supported: expected 4 (delta), 1, 3 or 9 (cumulative).`,
      );
      return false;
    }
    if (context.kind && context.kind !== kind) {
      onFail('The file mixes cumulative and interval ReadingTypes; import them separately.');
      return false;
    }
    context.kind = kind;
    return true;
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
  context.kind ??= 'register';
}
