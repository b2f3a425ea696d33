// @vitest-environment jsdom
import type { LocationReadings, MeterInfo } from '@cm/contracts/check.ts';
import { describe, expect, it } from 'vitest';
import { meterInfo, rawReadings } from '@/test-support/check-fixtures.ts';
import {
  billRequests,
  checkRequests,
  deriveCheckView,
  panelRequests,
  type Answer,
  type CheckAnswers,
} from './check-view.ts';
import { peaksQueryOf } from './totals/peaks-query.ts';
import { parseCheckUrl } from './model/url-state.ts';

const NOW = Date.parse('2026-06-15T10:00:00Z');

const none = <T>(): Answer<T> => ({ data: undefined, failure: null, isLoading: false, isFetching: false });
const loaded = <T>(data: T): Answer<T> => ({ data, failure: null, isLoading: false, isFetching: false });
const failed = <T>(status: number | 'NETWORK_ERROR', param: string | null = null): Answer<T> => ({
  data: undefined,
  failure: { status, message: 'why', param },
  isLoading: false,
  isFetching: false,
});

function answers(overrides: Partial<CheckAnswers> = {}): CheckAnswers {
  return {
    meter: none(),
    meters: none(),
    readings: none(),
    previous: none(),
    lastYear: none(),
    ...overrides,
  };
}

/** A location's answer with one meter (EM-10009 at indicator 3), `consumption` kWh over the range. */
function locationAnswer(consumption: number | null = 5, readings = 97, missing = 0): LocationReadings {
  const meter = rawReadings('2026-06-15T00:00:00Z', '2026-06-16T00:00:00Z');
  return {
    location: meter.meter.location,
    from: '2026-06-14T22:00:00.000Z',
    to: '2026-06-15T22:00:00.000Z',
    granularity: 'month',
    meters: [{ ...meter, totals: { ...meter.totals, consumption, readings, missingIntervals: missing } }],
  };
}

/** The default week (9–15 June in Berlin) answered, its data ending at `dataEnd`. */
function weekAnswer(dataEnd: string): LocationReadings {
  const day = locationAnswer();
  const [meter] = day.meters;
  if (!meter) throw new Error('no meter');
  return {
    ...day,
    from: '2026-06-08T22:00:00.000Z',
    to: '2026-06-15T22:00:00.000Z',
    meters: [{ ...meter, totals: { ...meter.totals, dataEnd } }],
  };
}

const view = (search: string, given: Partial<CheckAnswers> = {}) =>
  deriveCheckView(parseCheckUrl(search), answers(given), NOW);

describe('deriveCheckView', () => {
  it('asks for nothing on an empty page and offers no range', () => {
    const empty = view('');
    expect(empty.requests).toEqual({
      meterNumber: null,
      locationMeters: null,
      readings: null,
      previous: null,
      lastYear: null,
    });
    expect(empty.rangeControls).toBeNull();
    expect(empty.titleSubject).toBeNull();
    expect(empty.lookupKey).toBe('none');
    expect(empty.todayUtc).toBe('2026-06-15');
  });

  it("asks for a meter's information first, and for its readings once it knows the meter's zone", () => {
    const asking = view('meter=EM-10009', { meter: { ...none<MeterInfo>(), isLoading: true } });
    expect(asking.requests.meterNumber).toBe('EM-10009');
    expect(asking.requests.readings).toBeNull();
    expect(asking.isLoadingCard).toBe(true);
    expect(asking.rangeControls).toEqual({ key: expect.any(String), resolved: null, effective: null });

    const known = view('meter=EM-10009', { meter: loaded(meterInfo()) });
    // A week in Berlin (the meter's location), at hours; the comparisons in months.
    const base = { name: 'Riverside Campus – Library', meterInd: 3 };
    expect(known.requests.readings).toEqual({
      ...base,
      From: '2026-06-09',
      To: '2026-06-15',
      granularity: 'hour',
    });
    // The week is still going: the comparisons wait for its answer, to stop where its data stops.
    expect(known.requests.previous).toBeNull();
    expect(known.comparisons.map((comparison) => comparison.isLoading)).toEqual([true, true]);
    const answered = view('meter=EM-10009', {
      meter: loaded(meterInfo()),
      readings: loaded(weekAnswer('2026-06-15T09:45:00.000Z')),
    });
    expect(answered.requests.previous).toEqual({
      ...base,
      From: '2026-06-02',
      To: '2026-06-08T09:45:00.000Z',
      granularity: 'month',
    });
    expect(answered.requests.lastYear).toEqual({
      ...base,
      From: '2025-06-09',
      To: '2025-06-15T09:45:00.000Z',
      granularity: 'month',
    });
    expect(known.timeZone).toBe('Europe/Berlin');
    expect(known.card?.meter.meterNumber).toBe('EM-10009');
    expect(known.rangeControls?.resolved).toEqual({ from: '2026-06-09', to: '2026-06-15' });
    expect(known.titleSubject).toBe('EM-10009');
    expect(known.subject).toBe('EM-10009');
  });

  it('asks the bill projected to the end of this month or year, and for no rolling range (issue 34)', () => {
    // Now 2026-06-15 12:00 in Berlin: June ends on the 30th, the year on December 31.
    const asked = (preset: string) =>
      view(`meter=EM-10009&preset=${preset}`, { meter: loaded(meterInfo()) }).requests.readings;
    expect(asked('thisMonth')).toMatchObject({
      From: '2026-06-01',
      To: '2026-06-15',
      ProjectTo: '2026-06-30',
    });
    expect(asked('thisYear')).toMatchObject({
      From: '2026-01-01',
      To: '2026-06-15',
      ProjectTo: '2026-12-31',
    });
    expect(asked('last7')).not.toHaveProperty('ProjectTo');
    expect(asked('last12Months')).not.toHaveProperty('ProjectTo');
  });

  it('asks the bill card for this bill projected to its end and the whole bill before it (issue 34)', () => {
    // Now 2026-06-15 12:00 in Berlin. Calendar months (no billing day): June 1–30 so far, projected
    // to June 30; the bill before is May 1–31. Billing day 17: the period holding June 15 began
    // May 17 and ends June 16; the bill before is April 17 – May 16. Whatever range the page shows.
    const bills = (search: string, billingDay: number | null) => {
      const info = meterInfo();
      const meter = loaded({ ...info, location: { ...info.location, billingDay } });
      return billRequests(parseCheckUrl(search), { meter, meters: none() }, NOW);
    };
    const base = { name: 'Riverside Campus – Library', meterInd: 3, granularity: 'month' };
    expect(bills('meter=EM-10009&preset=last7', null)).toEqual({
      current: { ...base, From: '2026-06-01', To: '2026-06-30', ProjectTo: '2026-06-30' },
      last: { ...base, From: '2026-05-01', To: '2026-05-31' },
    });
    expect(bills('meter=EM-10009&from=2025-01-01&to=2025-01-03', 17)).toEqual({
      current: { ...base, From: '2026-05-17', To: '2026-06-16', ProjectTo: '2026-06-16' },
      last: { ...base, From: '2026-04-17', To: '2026-05-16' },
    });
    // Nothing asked before the meter's zone is known.
    expect(billRequests(parseCheckUrl('meter=EM-10009'), { meter: none(), meters: none() }, NOW)).toEqual({
      current: null,
      last: null,
    });
  });

  it("shows a removed meter's week up to its removal, never its successor's live days (issue 34.4)", () => {
    // Removed on 2026-03-10 at 10:30 Berlin (09:30 UTC): "Last 7 days" is 4–10 March, not projected.
    const removed = meterInfo({ status: 'removed', removedAt: '2026-03-10T09:30:00.000Z' });
    const shown = view('meter=EM-10009', { meter: loaded(removed) });
    expect(shown.requests.readings).toEqual({
      name: 'Riverside Campus – Library',
      meterInd: 3,
      From: '2026-03-04',
      To: '2026-03-10',
      granularity: 'hour',
    });
    expect(shown.rangeControls?.resolved).toEqual({ from: '2026-03-04', to: '2026-03-10' });
    // This month is the month it was removed in, finished: no projection.
    const month = view('meter=EM-10009&preset=thisMonth', { meter: loaded(removed) });
    expect(month.requests.readings).toEqual(
      expect.objectContaining({ From: '2026-03-01', To: '2026-03-10' }),
    );
    expect(month.requests.readings).not.toHaveProperty('ProjectTo');
  });

  it('says a meter is not found, and offers no range for it', () => {
    const missing = view('meter=EM-0', { meter: failed(404) });
    expect(missing.notFoundMeter).toBe('EM-0');
    expect(missing.errors.meter).toEqual({ key: 'check.errors.meterNotFound' });
    expect(missing.rangeControls).toBeNull();
    expect(missing.otherFailure).toBeNull();
  });

  it("lists a location's meters from a one-day answer and refuses an indicator it does not have", () => {
    const listing = view('location=Riverside&meterInd=7');
    expect(listing.requests.locationMeters).toEqual({
      name: 'Riverside',
      From: '2026-06-15',
      To: '2026-06-15',
      granularity: 'month',
    });
    const unknown = view('location=Riverside&meterInd=7', { meters: loaded(locationAnswer()) });
    expect(unknown.errors.meterInd).toEqual({ key: 'check.errors.meterIndNotFound' });
    expect(unknown.requests.readings).toBeNull();

    const known = view('location=Riverside&meterInd=3', { meters: loaded(locationAnswer()) });
    expect(known.requests.readings).toMatchObject({ name: 'Riverside', meterInd: 3 });
    // The card comes from the meter list before the readings arrive.
    expect(known.card?.meter.meterNumber).toBe('EM-10009');
  });

  it('checks custom dates itself and asks nothing for a range the wrong way round', () => {
    const reversed = view('meter=EM-10009&from=2026-06-10&to=2026-06-01', { meter: loaded(meterInfo()) });
    expect(reversed.errors.to).toEqual({ key: 'check.range.errors.order' });
    expect(reversed.requests.readings).toBeNull();
    expect(reversed.comparisons).toEqual([]);
    expect(reversed.rangeControls?.resolved).toBeNull();
  });

  it('says at once that 15 minutes or hours do not fit a range over 400 days, and asks nothing (17.9)', () => {
    // 1 January 2025 to 15 June 2026 in Berlin: 531 local days.
    const long = view('meter=EM-10009&from=2025-01-01&to=2026-06-15&granularity=raw', {
      meter: loaded(meterInfo()),
    });
    expect(long.errors.granularity).toEqual({
      key: 'check.range.errors.rawTooLong',
      values: { days: 531, max: 400 },
    });
    expect(long.requests.readings).toBeNull();
    const hours = view('meter=EM-10009&from=2025-01-01&to=2026-06-15&granularity=hour', {
      meter: loaded(meterInfo()),
    });
    expect(hours.errors.granularity?.key).toBe('check.range.errors.hourTooLong');
    // Days over the same range are asked for as chosen.
    const days = view('meter=EM-10009&from=2025-01-01&to=2026-06-15&granularity=day', {
      meter: loaded(meterInfo()),
    });
    expect(days.errors.granularity).toBeNull();
    expect(days.requests.readings).toMatchObject({
      granularity: 'day',
      From: '2025-01-01',
      To: '2026-06-15',
    });
  });

  it("puts the server's refusals next to the field they name, and other failures in an alert", () => {
    const meter = loaded(meterInfo());
    const badFrom = view('meter=EM-10009', { meter, readings: failed(400, 'From') });
    expect(badFrom.errors.from).toEqual({ key: 'check.errors.badParam.From', values: { detail: 'why' } });
    expect(badFrom.otherFailure).toBeNull();
    expect(badFrom.readings).toBeUndefined();
    expect(view('meter=EM-10009', { meter, readings: failed('NETWORK_ERROR') }).otherFailure).toBe('network');
    expect(view('meter=EM-10009', { meter, readings: failed(500) }).otherFailure).toBe('failed');
    expect(view('location=Nowhere', { meters: failed(404, 'name') }).errors.location).toEqual({
      key: 'check.errors.locationNotFound',
    });
  });

  it('keeps the answer on screen while the next one loads, and compares with earlier periods', () => {
    const meter = loaded(meterInfo());
    const stale = view('meter=EM-10009&from=2026-06-01&to=2026-06-07', {
      meter,
      readings: { ...loaded(locationAnswer()), isFetching: true },
      previous: loaded(locationAnswer(4.5, 49, 48)),
      lastYear: { ...none<LocationReadings>(), isFetching: true },
    });
    expect(stale.readings).toBeDefined();
    expect(stale.isReadingsStale).toBe(true);
    expect(stale.isReadingsPending).toBe(false);
    expect(stale.comparisons).toMatchObject([
      {
        kind: 'previous',
        // A finished week is set against the week just before, even from the 1st (issue 34).
        range: { from: '2026-05-25', to: '2026-05-31' },
        basis: 'whole',
        consumption: 4.5,
        // 48 intervals read, 48 missing.
        coverage: 0.5,
        isLoading: false,
        isError: false,
      },
      {
        kind: 'lastYear',
        range: { from: '2025-06-01', to: '2025-06-07' },
        consumption: null,
        coverage: null,
        isLoading: true,
        isError: false,
      },
    ]);
    const pending = view('meter=EM-10009', {
      meter,
      readings: { ...none<LocationReadings>(), isFetching: true },
    });
    expect(pending.isReadingsPending).toBe(true);
  });

  it('names the file and print subject by the meter shown, or by the location for all its meters', () => {
    const meters = loaded(locationAnswer());
    expect(view('location=Riverside', { meters }).subject).toBe('Riverside');
    expect(view('location=Riverside&meterInd=3', { meters, readings: meters }).subject).toBe('EM-10009');
    expect(view('location=Riverside&meterInd=3', { meters }).lookupKey).toBe('l:Riverside:3');
  });
});

describe('panelRequests', () => {
  it('asks a meter’s tariffs and peaks with its readings, as the panels will ask them from the answer', () => {
    const url = parseCheckUrl('?meter=EM-10009');
    const asked = checkRequests(url, answers({ meter: loaded(meterInfo()) }), NOW).readings;
    const name = 'Riverside Campus – Library';
    expect(asked).toMatchObject({ name, meterInd: 3, From: '2026-06-09', To: '2026-06-15' });
    const panels = panelRequests(asked);
    expect(panels).toEqual({ tariffs: name, peaks: { name, meterInd: 3, Month: '2026-06' } });
    // The week's answer (9–15 June in Berlin, its end exclusive) gives its panel the same request.
    const answer = weekAnswer('2026-06-15T10:00:00.000Z');
    const [first] = answer.meters;
    if (!first) throw new Error('no meter');
    const answered = {
      ...answer,
      location: { ...answer.location, publicName: name },
      meters: [
        { ...first, meterInd: 3, totals: { ...first.totals, demand: first.totals.demand ?? { kw: 1 } } },
      ],
    } as LocationReadings;
    expect(peaksQueryOf(answered)).toEqual(panels.peaks);
  });

  it('leaves a location’s peaks, and ranges not in whole days, to the answer', () => {
    expect(
      panelRequests({ name: 'Harbour View', From: '2026-06-09', To: '2026-06-15', granularity: 'hour' }),
    ).toEqual({
      tariffs: 'Harbour View',
      peaks: null,
    });
    expect(
      panelRequests({
        name: 'Harbour View',
        meterInd: 1,
        From: '2026-06-09',
        To: '2026-06-15T10:00:00.000Z',
        granularity: 'hour',
      }).peaks,
    ).toBeNull();
    expect(panelRequests(null)).toEqual({ tariffs: null, peaks: null });
  });
});
