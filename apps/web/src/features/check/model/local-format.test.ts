import { describe, expect, it } from 'vitest';
import { formatPeriod } from './local-format.ts';

describe('formatPeriod', () => {
  it('never reads the repeated autumn hour as "02:00 – 02:00": the end is on the start’s clock', () => {
    // Issue 17.9. Berlin, 25 October 2026: 02:00 CEST (00:00 UTC) to 02:00 CET (01:00 UTC) is the
    // first 02:00 hour; 02:00 CET to 03:00 CET the repeated one. The offset shown beside each
    // row (UTC+02:00, UTC+01:00) tells them apart.
    const first = formatPeriod(
      Date.parse('2026-10-25T00:00:00Z'),
      Date.parse('2026-10-25T01:00:00Z'),
      'hour',
      'en',
      'Europe/Berlin',
    );
    const repeated = formatPeriod(
      Date.parse('2026-10-25T01:00:00Z'),
      Date.parse('2026-10-25T02:00:00Z'),
      'hour',
      'en',
      'Europe/Berlin',
    );
    expect(first).toBe('Oct 25, 2026, 02:00 – 03:00');
    expect(repeated).toBe('Oct 25, 2026, 02:00 – 03:00');
    // Spring: 01:45 – 03:00 is one quarter hour (02:00 does not exist on 29 March 2026).
    expect(
      formatPeriod(
        Date.parse('2026-03-29T00:45:00Z'),
        Date.parse('2026-03-29T01:00:00Z'),
        'raw',
        'en',
        'Europe/Berlin',
      ),
    ).toBe('Mar 29, 2026, 01:45 – 02:00');
  });

  it('names the month on a phone too, never 09/07/26', () => {
    // Issue 17.9: the compact form of 9 July 2026 in en and fr.
    const day = Date.parse('2026-07-09T10:00:00Z');
    expect(formatPeriod(day, day + 86_400_000, 'day', 'en', 'UTC', true)).toBe('Jul 9, 2026');
    expect(formatPeriod(day, day + 86_400_000, 'day', 'fr', 'UTC', true)).toBe('9 juil. 2026');
  });
});
