import { describe, expect, it } from 'vitest';
import { addDays, addMonths, daysBetween, endOfMonth, isLocalDate, offsetMinutes } from './zoned-time.ts';

const at = (iso: string) => Date.parse(iso);

describe('offsets across DST', () => {
  it('Berlin: +01:00 in winter, +02:00 from 01:00Z on the last Sunday of March', () => {
    expect(offsetMinutes(at('2026-03-29T00:59:59Z'), 'Europe/Berlin')).toBe(60);
    expect(offsetMinutes(at('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toBe(120);
    expect(offsetMinutes(at('2026-10-25T00:59:59Z'), 'Europe/Berlin')).toBe(120);
    expect(offsetMinutes(at('2026-10-25T01:00:00Z'), 'Europe/Berlin')).toBe(60);
  });

  it('Lisbon and New York have their own rules', () => {
    expect(offsetMinutes(at('2026-01-15T12:00:00Z'), 'Europe/Lisbon')).toBe(0);
    expect(offsetMinutes(at('2026-07-15T12:00:00Z'), 'Europe/Lisbon')).toBe(60);
    expect(offsetMinutes(at('2026-03-08T06:59:00Z'), 'America/New_York')).toBe(-300);
    expect(offsetMinutes(at('2026-03-08T07:00:00Z'), 'America/New_York')).toBe(-240);
    expect(offsetMinutes(at('2026-11-01T06:00:00Z'), 'America/New_York')).toBe(-300);
  });

  it('quarter-hour zones too (Kathmandu +05:45)', () => {
    expect(offsetMinutes(at('2026-03-29T00:00:00Z'), 'Asia/Kathmandu')).toBe(345);
  });
});

describe('local dates', () => {
  it('calendar arithmetic', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-01-15', -2)).toBe('2025-11-15');
    expect(endOfMonth('2024-02-10')).toBe('2024-02-29');
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(30);
    expect(isLocalDate('2026-02-30')).toBe(false);
    expect(isLocalDate('2026-02-28')).toBe(true);
    expect(isLocalDate('26-02-28')).toBe(false);
  });
});
