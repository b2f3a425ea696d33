import type { Totals } from '@cm/contracts/check.ts';
import { describe, expect, it } from 'vitest';
import { agreementOf, formatChange, formatTotals, nextReading } from './totals.ts';

const totals: Totals = {
  consumption: 2051.301,
  registerStart: 156695.75,
  registerEnd: 158747.051,
  registerDifference: 2051.301,
  intervalSum: 1899.326,
  gapConsumption: 151.975,
  estimatedConsumption: 0,
  agrees: true,
  disagreement: 0,
  peak: { consumption: 9.799, at: '2026-11-16T08:00:00.000Z' },
  demand: null,
  averagePerDay: 333.206,
  dataEnd: '2026-11-22T23:00:00.000Z',
  readings: 592,
  missingIntervals: 24,
};

describe('totals', () => {
  it('formats in the interface language, kWh after the multiplier, registers as the meter shows them', () => {
    const en = formatTotals(totals, 'en');
    expect(en.consumption).toBe('2,051.301\u00a0kWh');
    expect(en.registerStart).toBe('156,695.750');
    expect(en.missingIntervals).toBe('24');
    const de = formatTotals(totals, 'de');
    expect(de.consumption).toBe('2.051,301\u00a0kWh');
    expect(de.peak).toBe('9,799\u00a0kWh');
    const fr = formatTotals(totals, 'fr');
    expect(fr.averagePerDay.replace(/\s/g, ' ')).toBe('333,206 kWh');
  });

  it('shows unknown values as a dash, not as zero', () => {
    const empty = formatTotals(
      {
        ...totals,
        consumption: null,
        registerStart: null,
        registerEnd: null,
        registerDifference: null,
        peak: null,
        averagePerDay: null,
      },
      'en',
    );
    expect([empty.consumption, empty.registerStart, empty.peak, empty.averagePerDay]).toEqual([
      '—',
      '—',
      '—',
      '—',
    ]);
  });

  it('checks register difference = intervals + gaps to the Wh', () => {
    expect(agreementOf(totals)).toBe('agrees');
    const off = { ...totals, agrees: false, intervalSum: 1890.326, disagreement: 9 };
    expect(agreementOf(off)).toBe('differs');
    expect(agreementOf({ ...totals, registerDifference: null })).toBe('unknown');
  });

  it('signs the change from an earlier period', () => {
    expect(formatChange(0.1, 'en')).toBe('+10%');
    expect(formatChange(-0.056, 'en')).toBe('\u22125.6%');
    expect(formatChange(0, 'en')).toBe('±0%');
  });

  it('says when the next reading is due, and that it is late until the server counts it missing', () => {
    // Issue 17.3: a 15-minute meter last read at 20:00, the range ending at midnight.
    const end = Date.parse('2026-06-02T00:00:00Z');
    const at = (time: string) => Date.parse(`2026-06-01T${time}:00Z`);
    const data = '2026-06-01T20:00:00.000Z';
    expect(nextReading(data, 15, end, at('20:10'))).toEqual({ atMs: at('20:15'), isLate: false });
    expect(nextReading(data, 15, end, at('20:20'))).toEqual({ atMs: at('20:15'), isLate: true });
    // From 20:30 the 20:15 reading is missing (the server's grace is one interval).
    expect(nextReading(data, 15, end, at('20:30'))).toBeNull();
    // A range that ends before the next reading, or without data, expects none.
    expect(nextReading(data, 15, at('20:10'), at('20:05'))).toBeNull();
    expect(nextReading(null, 15, end, at('20:10'))).toBeNull();
  });
});
