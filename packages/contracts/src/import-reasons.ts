/*
 * Why a line of a readings file was refused: a code the web app words in the reader's language
 * (`admin.import.reason.<code>`), its values, and the English sentence API consumers and the
 * rejected-lines CSV read, written from the template here. Zod-free: the browser reads it too.
 */

/** The English sentence of each refusal; `{{name}}` is replaced by the value of that name. */
export const importReasonTexts = {
  lineTooLong: 'line is longer than {{max}} characters.',
  fieldCount: 'expected {{expected}} fields, found {{found}}.',
  fieldCountAtLeast: 'expected at least {{expected}} fields, found {{found}}.',
  notAReading: '"{{value}}" is not a reading this import takes.',
  unknownMeter: 'unknown meter number "{{meterNumber}}".',
  emptyMeterNumber: 'meter_number is empty.',
  notANumber: '{{field}} "{{value}}" is not a number.',
  notAWholeNumber: 'value "{{value}}" is not a whole number.',
  tooLarge: 'value "{{value}}" is too large.',
  negative: '{{field}} must not be negative.',
  negativeExport: 'value must not be negative (export readings go on the export channel).',
  registerTooLarge: "{{field}} does not fit meter {{meterNumber}}'s {{digits}} digits.",
  registerTooLargeMapped: "the register does not fit meter {{meterNumber}}'s {{digits}} digits.",
  registerValueTooLarge:
    "the register ({{value}} kWh) does not fit meter {{meterNumber}}'s {{digits}} digits.",
  badQuality: 'quality must be 0 (actual), 1 (estimated) or 2 (substituted).',
  badChannel: 'channel must be import or export.',
  unknownChannel: 'channel "{{value}}" is neither import nor export.',
  notIso: 'timestamp "{{value}}" is not an ISO 8601 date-time (2024-03-31T02:30:00+01:00).',
  notRealTimestamp: 'timestamp "{{value}}" is not a real date and time.',
  badTimestampOffset: 'timestamp offset {{offset}} is not a real UTC offset (−14:00 to +14:00).',
  noOffsetNoZone: 'timestamp has no offset and no time zone is given (time_zone column or timeZone option).',
  badTimeZone: 'time_zone "{{value}}" is not an IANA time zone.',
  skippedTime: 'local time {{time}} does not exist in {{zone}} (the clocks skipped it); give an offset.',
  ambiguousTime:
    'local time {{time}} is ambiguous in {{zone}} (it occurs twice when clocks go back); give an offset.',
  skippedTimeInFile: 'local time {{time}} does not exist in {{zone}} (the clocks skipped it).',
  ambiguousTimeInFile:
    "local time {{time}} occurs twice in {{zone}} (clocks go back) and the file's order does not tell which this is.",
  notExcelDate: '{{value}} is not an Excel date serial number.',
  dateLayout: 'date {{value}} does not read as {{layout}}.',
  notTimeOfDay: 'time {{value}} is not a time of day (HH:MM).',
  notRealDateTime: '{{value}} is not a real date and time.',
  badOffset: 'offset {{offset}} is not a real UTC offset.',
  badIntervalSpan: "the interval's end is not after its start, or the interval is longer than 31 days.",
  inFuture: 'timestamp is in the future.',
  notInstalledYet: 'meter {{meterNumber}} was not installed yet at that time.',
  alreadyRemoved: 'meter {{meterNumber}} was already removed at that time.',
  outsideBlock: 'an IntervalReading outside an IntervalBlock entry.',
  notEpochSeconds: 'timePeriod start "{{value}}" is not whole epoch seconds.',
  badDuration: 'timePeriod duration is not a whole number of seconds.',
  needsDuration: 'an interval reading needs a timePeriod duration.',
  duplicateLine: 'duplicate of line {{line}} (same meter and time).',
  conflictingLine: 'same meter and time as line {{line}} with another value.',
  belowPrevious: 'register {{value}} is below the previous register {{previous}} (not a rollover).',
  aboveNextStored:
    'register {{value}} is above the next stored register {{next}} (at {{nextAt}}): a register never goes down.',
  overlapsStored: 'the interval overlaps a stored interval from {{at}}.',
  overlapsLine: 'the interval overlaps line {{line}}.',
  beyondDay: 'column {{column}} starts after the end of {{date}} ({{hours}} hours in {{zone}}).',
} as const;

/** A refusal's code. */
export type ImportReasonCode = keyof typeof importReasonTexts;

/** A refusal: its code and the values its sentence names. */
export interface ImportReason {
  code: ImportReasonCode;
  params: Readonly<Record<string, string | number>>;
}

/** The reason, with the values it names (none by default). */
export function because(code: ImportReasonCode, params: ImportReason['params'] = {}): ImportReason {
  return { code, params };
}

/** Whether `code` is one this version knows (a stored report may be older or newer). */
export function isImportReasonCode(code: string): code is ImportReasonCode {
  return Object.hasOwn(importReasonTexts, code);
}

/** The English sentence of a refusal. */
export function reasonText({ code, params }: ImportReason): string {
  return importReasonTexts[code].replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
