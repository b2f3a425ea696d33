import { describe, expect, it } from 'vitest';
import { DEFAULT_CHART_VIEW, parseCheckUrl, serializeCheckUrl, type CheckUrlState } from './url-state.ts';

describe('check page URL state', () => {
  it('opens a bookmarked meter or location straight away (the search links)', () => {
    expect(parseCheckUrl('?meter=EM-10001')).toEqual({
      target: { kind: 'meter', meterNumber: 'EM-10001' },
      range: { kind: 'preset', preset: 'last7' },
      granularity: 'auto',
      chart: DEFAULT_CHART_VIEW,
    });
    expect(parseCheckUrl('?location=Harbour%20View%20%2F%20Block%20C').target).toEqual({
      kind: 'location',
      name: 'Harbour View / Block C',
      meterInd: 'all',
    });
  });

  it('round-trips every field', () => {
    const states: CheckUrlState[] = [
      {
        target: { kind: 'location', name: 'Riverside Campus – Library', meterInd: 3 },
        range: { kind: 'custom', from: '2026-09-04', to: '2026-09-04' },
        granularity: 'raw',
        // Issue 17.9: the chart's style and register are in the link too.
        chart: { style: 'line', register: true, cost: false, price: false },
      },
      {
        target: { kind: 'meter', meterNumber: 'EM-10004' },
        range: { kind: 'preset', preset: 'lastMonth' },
        granularity: 'day',
        chart: { style: 'bars', register: false, cost: false, price: true },
      },
      {
        target: { kind: 'none' },
        range: { kind: 'preset', preset: 'last7' },
        granularity: 'auto',
        chart: DEFAULT_CHART_VIEW,
      },
      {
        target: { kind: 'location', name: 'A & B = C?', meterInd: 'all' },
        range: { kind: 'preset', preset: 'thisYear' },
        granularity: 'month',
        chart: { style: 'auto', register: true, cost: true, price: true },
      },
    ];
    for (const state of states) expect(parseCheckUrl(serializeCheckUrl(state))).toEqual(state);
  });

  it('keeps links short: defaults are left out', () => {
    expect(
      serializeCheckUrl({
        target: { kind: 'meter', meterNumber: 'EM-1' },
        range: { kind: 'preset', preset: 'last7' },
        granularity: 'auto',
        chart: DEFAULT_CHART_VIEW,
      }),
    ).toBe('meter=EM-1');
  });

  it('accepts the API spelling From/To', () => {
    expect(parseCheckUrl('?location=X&From=2026-03-01&To=2026-03-31').range).toEqual({
      kind: 'custom',
      from: '2026-03-01',
      to: '2026-03-31',
    });
  });

  it('falls back to defaults on nonsense, and a meter wins over a location', () => {
    const state = parseCheckUrl(
      '?meter=EM-1&location=X&meterInd=-3&preset=forever&granularity=second&chart=pie&register=yes',
    );
    expect(state).toEqual({
      target: { kind: 'meter', meterNumber: 'EM-1' },
      range: { kind: 'preset', preset: 'last7' },
      granularity: 'auto',
      chart: DEFAULT_CHART_VIEW,
    });
    expect(parseCheckUrl('?location=X&meterInd=abc').target).toEqual({
      kind: 'location',
      name: 'X',
      meterInd: 'all',
    });
    expect(parseCheckUrl('?meter=%20%20').target).toEqual({ kind: 'none' });
  });

  it('keeps a wrong custom date so the form can point at it', () => {
    expect(parseCheckUrl('?meter=EM-1&from=2026-02-30&to=2026-03-01').range).toEqual({
      kind: 'custom',
      from: '2026-02-30',
      to: '2026-03-01',
    });
  });
});
