import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatEnergy,
  formatMoney,
  formatNumber,
  formatRelative,
  formatZonedDateTime,
} from './format.ts';

describe('format', () => {
  it('formats numbers and energies with each language’s separators', () => {
    expect(formatNumber(12345.5, 'en')).toBe('12,345.5');
    expect(formatNumber(12345.5, 'de')).toBe('12.345,5');
    expect(formatEnergy(1234.5678, 'fr')).toBe('1\u202f234,568\u00a0kWh');
    expect(formatEnergy(0.5, 'pt')).toBe('0,500\u00a0kWh');
  });

  it('formats dates in the given time zone', () => {
    const instant = '2026-03-29T23:30:00Z';
    expect(formatDate(instant, 'en', 'UTC')).toBe('Mar 29, 2026');
    expect(formatDate(instant, 'de', 'Europe/Berlin')).toBe('30.03.2026');
  });

  it("says a time in a location's zone with the offset in force then (issue 17.14)", () => {
    // Berlin's spring-forward night: 01:30 UTC is 03:30 summer time.
    expect(formatZonedDateTime('2026-03-29T01:30:00Z', 'de', 'Europe/Berlin')).toBe(
      '29.03.2026, 03:30 (UTC+02:00)',
    );
    expect(formatZonedDateTime('2026-03-29T00:30:00Z', 'de', 'Europe/Berlin')).toBe(
      '29.03.2026, 01:30 (UTC+01:00)',
    );
  });

  it('writes a 24-hour clock and a true minus sign in every language (issue 34, low)', () => {
    expect(formatZonedDateTime('2026-11-27T16:15:00Z', 'en', 'UTC')).toBe('Nov 27, 2026, 16:15 (UTC+00:00)');
    expect(formatNumber(-19.019, 'en')).toBe('\u221219.019');
    expect(formatEnergy(-1.754, 'de')).toBe('\u22121,754\u00a0kWh');
    expect(formatMoney(-0.25, 'EUR', 'en')).toBe('\u2212€0.25');
  });

  it('writes energies with three decimals, as the readings table does (issue 34 low)', () => {
    // The check page showed 11.57, 119.7 and 288.8 kWh beside 21.034 in the table.
    expect(formatEnergy(11.57, 'en')).toBe('11.570\u00a0kWh');
    expect(formatEnergy(119.7, 'de')).toBe('119,700\u00a0kWh');
    expect(formatEnergy(288.8, 'fr')).toBe('288,800\u00a0kWh');
    // A file's finer values keep up to six; a limit a person typed stays as typed.
    expect(formatEnergy(48.5, 'en', 6)).toBe('48.500\u00a0kWh');
    expect(formatEnergy(0.000125, 'en', 6)).toBe('0.000125\u00a0kWh');
    expect(formatEnergy(5, 'en', 3, 0)).toBe('5\u00a0kWh');
  });

  it('writes the small amounts of a column with one precision (issue 34 low)', () => {
    // An hourly cost column held €0.005, €0.0056, €0.01 and €0.00: four decimals each.
    expect(['0.005', '0.0056', '0.01', '0'].map((v) => formatMoney(Number(v), 'EUR', 'en', true))).toEqual([
      '€0.0050',
      '€0.0056',
      '€0.0100',
      '€0.0000',
    ]);
    expect(formatMoney(0.2047, 'EUR', 'de', true)).toBe('0,2047 €');
  });

  it('says how long ago in words', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(formatRelative(now - 5 * 60_000, 'en', now)).toBe('5 minutes ago');
    expect(formatRelative(now - 5 * 60_000, 'fr', now)).toBe('il y a 5 minutes');
    expect(formatRelative(now - 26 * 3_600_000, 'en', now)).toBe('yesterday');
  });

  it('builds each Intl formatter once per language, zone and options (issue 38)', () => {
    const built = { relative: 0, dates: 0 };
    const { RelativeTimeFormat, DateTimeFormat } = Intl;
    class CountedRelative extends RelativeTimeFormat {
      constructor(...args: ConstructorParameters<typeof RelativeTimeFormat>) {
        super(...args);
        built.relative += 1;
      }
    }
    class CountedDates extends DateTimeFormat {
      constructor(...args: ConstructorParameters<typeof DateTimeFormat>) {
        super(...args);
        built.dates += 1;
      }
    }
    Object.assign(Intl, { RelativeTimeFormat: CountedRelative, DateTimeFormat: CountedDates });
    const now = Date.parse('2026-01-01T12:00:00Z');
    try {
      for (let minutes = 1; minutes <= 20; minutes += 1) formatRelative(now - minutes * 60_000, 'de', now);
      for (let day = 1; day <= 20; day += 1) formatDate(Date.UTC(2026, 0, day), 'pt', 'Asia/Tokyo');
      expect(built).toEqual({ relative: 1, dates: 1 });
      // Another zone is another formatter: 23:30 UTC is 20:30 on the 29th in São Paulo (UTC−3)
      // and 08:30 on the 30th in Tokyo (UTC+9). Expected texts from Intl itself, not through the cache.
      const intlDate = (timeZone: string) =>
        new DateTimeFormat('pt', { dateStyle: 'medium', timeZone }).format(
          Date.parse('2026-03-29T23:30:00Z'),
        );
      expect(intlDate('America/Sao_Paulo')).toMatch(/^29 /);
      expect(intlDate('Asia/Tokyo')).toMatch(/^30 /);
      expect(formatDate('2026-03-29T23:30:00Z', 'pt', 'America/Sao_Paulo')).toBe(
        intlDate('America/Sao_Paulo'),
      );
      expect(formatDate('2026-03-29T23:30:00Z', 'pt', 'Asia/Tokyo')).toBe(intlDate('Asia/Tokyo'));
    } finally {
      Object.assign(Intl, { RelativeTimeFormat, DateTimeFormat });
    }
  });
});
