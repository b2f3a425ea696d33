import {
  isGranularityChoice,
  isPresetId,
  type DateRange,
  type GranularityChoice,
  type PresetId,
} from './date-range.ts';

/** The default range: a week shows a meter's daily rhythm and whether it is still reporting. */
export const DEFAULT_PRESET: PresetId = 'last7';

/** What is being looked at: a meter by its number, or a location (one meter indicator, or all). */
export type CheckTarget =
  | { kind: 'none' }
  | { kind: 'meter'; meterNumber: string }
  | { kind: 'location'; name: string; meterInd: number | 'all' };

/** Either a preset (resolved against today in the location's zone) or fixed dates. */
export type RangeChoice = { kind: 'preset'; preset: PresetId } | ({ kind: 'custom' } & DateRange);

/** How the chart draws: bars or a line (auto: bars up to a point count), with the register or not. */
export interface ChartView {
  style: 'auto' | 'bars' | 'line';
  register: boolean;
  /** What the bars measure: energy, or (with a tariff) what it costs. */
  cost: boolean;
  /** With a tariff, one meter: the price per kWh as a line on its own axis. */
  price: boolean;
}

/** The chart as it first opens. */
export const DEFAULT_CHART_VIEW: ChartView = { style: 'auto', register: false, cost: false, price: false };

/** The check page's state, all of it in the query string so reload, share and back/forward work. */
export interface CheckUrlState {
  target: CheckTarget;
  range: RangeChoice;
  granularity: GranularityChoice;
  chart: ChartView;
}

/** Query string names. `From`/`To` are accepted too, spelled as the API spells them. */
export const urlParams = {
  meter: 'meter',
  location: 'location',
  meterInd: 'meterInd',
  preset: 'preset',
  from: 'from',
  to: 'to',
  granularity: 'granularity',
  chart: 'chart',
  register: 'register',
  cost: 'cost',
  price: 'price',
} as const;

const MAX_TEXT = 200;

function text(params: URLSearchParams, name: string): string | null {
  const value = params.get(name)?.trim() ?? '';
  return value === '' || value.length > MAX_TEXT ? null : value;
}

function parseMeterInd(value: string | null): number | 'all' {
  if (value === null || !/^\d{1,4}$/.test(value)) return 'all';
  const n = Number(value);
  return n >= 1 ? n : 'all';
}

/** Reads the page state from a query string. Anything unreadable falls back to the defaults. */
export function parseCheckUrl(search: string | URLSearchParams): CheckUrlState {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const meter = text(params, urlParams.meter);
  const location = text(params, urlParams.location);
  let target: CheckTarget = { kind: 'none' };
  if (meter !== null) target = { kind: 'meter', meterNumber: meter };
  else if (location !== null)
    target = { kind: 'location', name: location, meterInd: parseMeterInd(params.get(urlParams.meterInd)) };

  const from = text(params, urlParams.from) ?? text(params, 'From');
  const to = text(params, urlParams.to) ?? text(params, 'To');
  const preset = params.get(urlParams.preset);
  let range: RangeChoice = { kind: 'preset', preset: isPresetId(preset) ? preset : DEFAULT_PRESET };
  // Custom dates are kept even when wrong, so the form can show what is wrong next to the field.
  if (from !== null && to !== null && !isPresetId(preset)) range = { kind: 'custom', from, to };

  const granularity = params.get(urlParams.granularity);
  const style = params.get(urlParams.chart);
  return {
    target,
    range,
    granularity: isGranularityChoice(granularity) ? granularity : 'auto',
    chart: {
      style: style === 'bars' || style === 'line' ? style : 'auto',
      register: params.get(urlParams.register) === '1',
      cost: params.get(urlParams.cost) === '1',
      price: params.get(urlParams.price) === '1',
    },
  };
}

/** Writes the page state as a query string (without `?`); defaults are left out to keep links short. */
export function serializeCheckUrl(state: CheckUrlState): string {
  const params = new URLSearchParams();
  const { target, range, granularity, chart } = state;
  if (target.kind === 'meter') params.set(urlParams.meter, target.meterNumber);
  if (target.kind === 'location') {
    params.set(urlParams.location, target.name);
    if (target.meterInd !== 'all') params.set(urlParams.meterInd, String(target.meterInd));
  }
  if (range.kind === 'custom') {
    params.set(urlParams.from, range.from);
    params.set(urlParams.to, range.to);
  } else if (range.preset !== DEFAULT_PRESET) {
    params.set(urlParams.preset, range.preset);
  }
  if (granularity !== 'auto') params.set(urlParams.granularity, granularity);
  if (chart.style !== 'auto') params.set(urlParams.chart, chart.style);
  if (chart.register) params.set(urlParams.register, '1');
  if (chart.cost) params.set(urlParams.cost, '1');
  if (chart.price) params.set(urlParams.price, '1');
  return params.toString();
}
