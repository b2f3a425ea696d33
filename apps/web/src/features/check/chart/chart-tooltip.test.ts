// @vitest-environment jsdom
import '@/test-support/uplot-env.ts';
import type { LocationReadings } from '@cm/contracts/check.ts';
import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { dailyReadings } from '@/test-support/check-fixtures.ts';
import { testI18n } from '@/test-support/i18n.ts';
import en from '../../../../public/locales/en.json';
import { chartThemes } from './chart-options.ts';
import { showTooltip, tooltipContent } from './chart-tooltip.ts';

let t: TFunction;
beforeAll(async () => {
  t = (await testI18n('en', { en })).t;
});

/** The fixture's three Berlin days (28–30 March 2026, the 29th of 23 hours) as one meter's answer. */
function answer(): LocationReadings {
  const meter = dailyReadings();
  return {
    location: meter.meter.location,
    from: '2026-03-27T23:00:00.000Z',
    to: '2026-03-30T22:00:00.000Z',
    granularity: 'day',
    meters: [meter],
  };
}

const options = () => ({
  locale: 'en',
  t,
  hasExport: false,
  withRegister: true,
  theme: chartThemes.light,
  currency: null,
  prices: null,
});

describe('the chart tooltip', () => {
  it('names the day that ends under the cursor, its energy, peak and register', () => {
    // Day 2 (29 March, the short day) ends at 22:00 UTC: 30 kWh, a peak of at least 2.4 kW, and the
    // register at its end, 120 (the register is shown to the Wh).
    const content = tooltipContent(answer(), Date.parse('2026-03-29T22:00:00Z'), options());
    expect(content?.period).toMatch(/Mar 29, 2026/);
    expect(content?.lines.slice(0, 3).map((line) => line.text)).toEqual([
      '30.000\u00a0kWh',
      'Peak ≥\u00a02.4\u00a0kW',
      'Register 120.000',
    ]);
    expect(content?.lines[0]?.strong).toBe(true);
  });

  it('has nothing to say where no row ends', () => {
    expect(tooltipContent(answer(), Date.parse('2026-03-29T12:00:00Z'), options())).toBeNull();
  });

  it('writes the period and one line per figure into the element', () => {
    const element = document.createElement('div');
    showTooltip(element, { period: 'Mar 29', lines: [{ text: '30 kWh', strong: true, color: '#123456' }] });
    expect([...element.children].map((child) => child.textContent)).toEqual(['Mar 29', '30 kWh']);
    expect((element.children[1] as HTMLElement).style.fontWeight).toBe('700');
  });
});
