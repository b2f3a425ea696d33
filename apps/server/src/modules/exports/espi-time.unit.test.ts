import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localTimeParameters } from './espi-time.ts';

const SAMPLES = path.resolve(import.meta.dirname, '../../../../../fixtures/real/greenbutton-samples');

/** The LocalTimeParameters a real Green Button file carries (fixtures/real/greenbutton-samples/SOURCE.md). */
function parametersIn(file: string) {
  const xml = readFileSync(path.join(SAMPLES, file), 'utf8');
  const field = (name: string) => new RegExp(`<${name}>([^<]+)</${name}>`).exec(xml)?.[1];
  return {
    tzOffset: Number(field('tzOffset')),
    dstOffset: Number(field('dstOffset')),
    dstStartRule: field('dstStartRule'),
    dstEndRule: field('dstEndRule'),
  };
}

/**
 * Reads a packed rule back, written apart from the encoder from usage.xsd's DstRuleType text: the
 * local wall time (ms since 1970 on the local clock) it names in `year`.
 */
function decodeRule(rule: string, year: number): number {
  const value = parseInt(rule, 16);
  const seconds = value & 0xfff;
  const hour = (value >>> 12) & 0x1f;
  const weekday = (value >>> 17) & 0x7;
  const dayOfMonth = (value >>> 20) & 0x1f;
  const operator = (value >>> 25) & 0x7;
  const month = (value >>> 28) & 0xf;
  const dateOf = (day: number) => Date.UTC(year, month - 1, day);
  const isoWeekday = (ms: number) => ((new Date(ms).getUTCDay() + 6) % 7) + 1;
  let day: number;
  if (operator === 0) day = dayOfMonth;
  else {
    const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
    const matching = Array.from({ length: days }, (_, k) => k + 1).filter(
      (d) => isoWeekday(dateOf(d)) === weekday,
    );
    day = (operator === 7 ? matching.at(-1) : matching[operator - 2]) ?? NaN;
  }
  return dateOf(day) + hour * 3_600_000 + seconds * 1000;
}

/** The instants the zone's offset changes in a year (on the hour), with the offsets either side, from Intl alone. */
function intlChanges(timeZone: string, year: number) {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  const offset = (ms: number) => {
    const text = format.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value;
    const match = /GMT([+-])(\d{2}):(\d{2})/.exec(text ?? '');
    return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  };
  const changes: Array<{ wallBefore: number; from: number; to: number }> = [];
  let previous = offset(Date.UTC(year, 0, 1));
  for (let ms = Date.UTC(year, 0, 1) + 3_600_000; ms < Date.UTC(year + 1, 0, 1); ms += 3_600_000) {
    const current = offset(ms);
    if (current !== previous)
      changes.push({ wallBefore: ms + previous * 60_000, from: previous, to: current });
    previous = current;
  }
  return changes;
}

describe('localTimeParameters', () => {
  it("writes the US rules as the utilities' own Green Button files do", () => {
    // Coastal: US Pacific, 2011; the daily sample: US Eastern.
    expect(localTimeParameters('America/Los_Angeles', 2011)).toEqual(
      parametersIn('Coastal_Multi_Family_Jan_1_2011_to_Jan_1_2012_RetailCustomer_5.xml'),
    );
    const eastern = parametersIn('TestGBDataOneYearDailyBinnedMonthly.xml');
    expect(localTimeParameters('America/New_York', 2013)).toEqual(eastern);
  });

  it('writes rules that give back every DST change of the years after, in Europe and the US', () => {
    for (const timeZone of ['Europe/Berlin', 'Europe/Lisbon', 'America/New_York']) {
      const parameters = localTimeParameters(timeZone, 2026);
      for (const year of [2026, 2027, 2030]) {
        const [start, end] = intlChanges(timeZone, year);
        expect(decodeRule(parameters.dstStartRule, year)).toBe(start?.wallBefore);
        expect(decodeRule(parameters.dstEndRule, year)).toBe(end?.wallBefore);
        expect(parameters.dstOffset).toBe(((start?.to ?? 0) - (start?.from ?? 0)) * 60);
        expect(parameters.tzOffset).toBe((start?.from ?? 0) * 60);
      }
    }
  });

  it('says a zone without DST has none', () => {
    expect(localTimeParameters('Asia/Tokyo', 2026)).toEqual({
      tzOffset: 32_400,
      dstOffset: 0,
      dstStartRule: 'FFFFFFFF',
      dstEndRule: 'FFFFFFFF',
    });
  });
});
