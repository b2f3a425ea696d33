import { Alert, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconAlertCircle } from '@tabler/icons-react';
import type { LocationReadings, MeterInfo } from '@cm/contracts/check.ts';
import { useCallback, useDeferredValue, useEffect, useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '@/lib/config.ts';
import { endFirstPaint } from '@/lib/first-paint.ts';
import { toFailure } from '@/lib/http-client.ts';
import { moduleLoader } from '@/lib/module-loader.ts';
import {
  checkApi,
  preloadCheckParsers,
  useGetLocationReadingsQuery,
  useGetMeterInfoQuery,
  type ReadingsArgs,
} from './api.ts';
import {
  billRequests,
  checkRequests,
  comparisonRequests,
  deriveCheckView,
  lookupKeyOf,
  lookupRequests,
  panelRequests,
  type Answer,
  type Message,
} from './check-view.ts';
import { LookupPanel } from './lookup/lookup-panel.tsx';
import { useLookupKey } from './lookup/use-lookup-key.ts';
import { StartPanel } from './lookup/start-panel.tsx';
import { MeterCard, MeterCardSkeleton } from './meter/meter-card.tsx';
import { BillCard } from './totals/bill-card.tsx';
import { useCheckUrl } from './model/use-check-url.ts';
import { useNow } from './model/use-now.ts';
import { serializeCheckUrl, type CheckTarget, type CheckUrlState } from './model/url-state.ts';
import { primeOffsets } from './model/zoned-time.ts';
import { RangeControls, type RangeChange } from './range/range-controls.tsx';
import { ReadingsSkeleton } from './ui/readings-skeleton.tsx';
import classes from './check.module.css';

// The readings' panels (chart and uPlot, table, totals) are code of their own, fetched once a
// target is asked for: an empty page neither loads nor parses them.
const readingsCode = moduleLoader(() => import('./readings-section.tsx'));
const preloadReadingsCode = () => {
  void readingsCode.preload();
  void import('./table/table-panel.tsx').then((module) => module.preloadReadingsTable());
};

/** What the view reads of an RTK Query hook's result. */
interface QueryState<T> {
  data?: T;
  error?: unknown;
  isLoading: boolean;
  isFetching: boolean;
}

/** A query's state as the view reads it. */
function answerOf<T>(query: QueryState<T>): Answer<T> {
  return {
    data: query.data,
    failure: toFailure(query.error),
    isLoading: query.isLoading,
    isFetching: query.isFetching,
  };
}

const NO_READINGS: ReadingsArgs = { name: '', From: '', To: '', granularity: 'month' };

function useReadingsQuery(args: ReadingsArgs | null): QueryState<LocationReadings> {
  return useGetLocationReadingsQuery(args ?? NO_READINGS, { skip: args === null });
}

function useReadings(args: ReadingsArgs | null): Answer<LocationReadings> {
  return answerOf(useReadingsQuery(args));
}

/**
 * An answer that mounts the page's cards (the meter's card, the range, the bill) as it lands, taken
 * at a transition's priority: the store tells React of every answer synchronously, and that render
 * (a phone's 100 ms and more) would be one task nothing can interrupt; deferred, React renders it in
 * slices between frames, the skeletons staying meanwhile (issue 38).
 */
function useDeferredAnswer<T>(query: QueryState<T>): Answer<T> {
  return answerOf<T>(useDeferredValue(query));
}

/** The check page: what is this meter, is it working, how much did it use. */
export function CheckPage() {
  const { t, i18n } = useTranslation();
  // `update` is stable: an answer arriving re-renders neither the lookup nor the range controls.
  const [state, update] = useCheckUrl();
  const now = useNow();
  // The title and intro below are where index.html painted them first: its stand-in goes in this commit.
  useLayoutEffect(endFirstPaint, []);

  // The answers' schemas load once something is asked for (an empty page evaluates none).
  const hasTarget = state.target.kind !== 'none';
  useEffect(() => {
    if (hasTarget) preloadCheckParsers();
  }, [hasTarget]);

  // A meter: its information first (location, meter indicator, zone), then its readings. A
  // location: its meters and zone from a one-day, one-bucket answer.
  const lookup = lookupRequests(state, now);
  const meter = useDeferredAnswer<MeterInfo>(
    useGetMeterInfoQuery(lookup.meterNumber ?? '', { skip: lookup.meterNumber === null }),
  );
  const meters = useDeferredAnswer(useReadingsQuery(lookup.locationMeters));
  const asked = checkRequests(state, { meter, meters }, now);
  const readings = useReadings(asked.readings);
  // A range still going is compared up to where its own data ends: asked once its answer is in.
  const compared = comparisonRequests(state, { meter, meters, readings }, now);
  const previous = useReadings(compared.previous);
  const lastYear = useReadings(compared.lastYear);
  const view = deriveCheckView(state, { meter, meters, readings, previous, lastYear }, now);
  // The bill card: this billing period and the one before, whatever the range shown (issue 34).
  const bills = billRequests(state, { meter, meters }, now);
  const billNow = useReadings(bills.current);
  const billBefore = useReadings(bills.last);

  useDocumentTitle(
    `${view.titleSubject === null ? '' : `${view.titleSubject} · `}${t('check.title')} · ${PRODUCT_NAME}`,
  );

  const askedFrom = asked.readings?.From;
  const askedTo = asked.readings?.To;
  const { timeZone } = view;
  // While the answer is on its way: learn the zone's offsets over the range (the chart's DST marks
  // and time axis need them) and fetch the code of the panels and of the table.
  useEffect(() => {
    if (!askedFrom || !askedTo || !timeZone) return;
    primeOffsets(askedFrom, askedTo, timeZone);
    preloadReadingsCode();
  }, [askedFrom, askedTo, timeZone]);
  // What the panels under the readings will ask, asked now beside the readings.
  const panels = panelRequests(asked.readings);
  const prefetchTariffs = checkApi.usePrefetch('getTariffs');
  const prefetchPeaks = checkApi.usePrefetch('getMonthlyPeaks');
  const { tariffs: tariffsName, peaks } = panels;
  useEffect(() => {
    if (tariffsName !== null) prefetchTariffs(tariffsName);
  }, [tariffsName, prefetchTariffs]);
  const [peaksName, peaksInd, peaksMonth] = [peaks?.name, peaks?.meterInd, peaks?.Month];
  useEffect(() => {
    if (peaksName === undefined || peaksMonth === undefined) return;
    prefetchPeaks({ name: peaksName, meterInd: peaksInd, Month: peaksMonth });
  }, [peaksName, peaksInd, peaksMonth, prefetchPeaks]);
  const code = readingsCode.useModule(asked.readings !== null);

  const handleTarget = useCallback((next: CheckTarget) => update({ target: next }), [update]);
  const lookupPanel = useLookupKey(view.lookupKey);
  const { onOwnSubmit } = lookupPanel;
  const handleLookupSubmit = useCallback(
    (next: CheckTarget) => {
      onOwnSubmit(lookupKeyOf(next));
      handleTarget(next);
    },
    [onOwnSubmit, handleTarget],
  );
  const handleRange = useCallback((change: RangeChange) => update(change), [update]);
  const handleChartView = useCallback(
    (change: Partial<CheckUrlState['chart']>) =>
      update((current) => ({ chart: { ...current.chart, ...change } })),
    [update],
  );
  const { target } = state;
  const handlePickMeter = useCallback(
    (ind: number) => {
      if (target.kind === 'location') handleTarget({ kind: 'location', name: target.name, meterInd: ind });
    },
    [target, handleTarget],
  );

  // The readings' panels draw at a transition's priority: React renders them in slices of a few
  // milliseconds between the browser's frames, not in one task a phone's CPU cannot interrupt when
  // the answer lands (issue 38). Until they are drawn, the skeleton (or the answer before) stays.
  // Nothing of an answer no longer asked for (another meter) stays while the next is drawn.
  const deferredReadings = useDeferredValue(view.readings, null);
  const shownReadings = view.readings === null ? null : deferredReadings;
  const isDrawing = shownReadings !== view.readings;

  const say = (message: Message | null) => (message ? t(message.key, message.values ?? {}) : null);
  const { errors } = view;

  return (
    <Stack gap="md" className={classes.page} lang={i18n.language} data-testid="check-page">
      <div className={classes.noPrint}>
        <Title order={1}>{t('check.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('check.subtitle')}
        </Text>
      </div>

      <LookupPanel
        key={lookupPanel.key}
        target={target}
        todayUtc={view.todayUtc}
        meterError={say(errors.meter)}
        locationError={say(errors.location)}
        meterIndError={say(errors.meterInd)}
        onSubmit={handleLookupSubmit}
      />

      {target.kind === 'none' ? <StartPanel /> : null}

      {view.notFoundMeter !== null ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle aria-hidden />}
          title={t('check.errors.notFoundTitle')}
          data-testid="not-found"
          role="alert"
        >
          {t('check.errors.meterNotFoundText', { meterNumber: view.notFoundMeter })}
        </Alert>
      ) : null}
      {view.otherFailure ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle aria-hidden />}
          title={t('check.errors.failedTitle')}
          role="alert"
        >
          {view.otherFailure === 'network' ? t('check.errors.network') : t('check.errors.failed')}
        </Alert>
      ) : null}

      {view.isLoadingCard ? (
        <MeterCardSkeleton />
      ) : view.card ? (
        <MeterCard now={now} meter={view.card.meter} meterNumbers={view.card.meterNumbers} />
      ) : null}

      {bills.current && !billNow.failure ? (
        <BillCard current={billNow.data} last={billBefore.data} isLastLoading={billBefore.isLoading} />
      ) : null}

      {view.rangeControls ? (
        <RangeControls
          key={view.rangeControls.key}
          now={now}
          range={state.range}
          resolved={view.rangeControls.resolved}
          granularity={state.granularity}
          effective={view.rangeControls.effective}
          timeZone={timeZone}
          errors={{ from: say(errors.from), to: say(errors.to), granularity: say(errors.granularity) }}
          onChange={handleRange}
        />
      ) : null}

      {view.isReadingsPending || (view.readings && !shownReadings) ? <ReadingsSkeleton /> : null}
      {shownReadings ? (
        <div
          className={view.isReadingsStale || isDrawing ? classes.stale : undefined}
          aria-busy={view.isReadingsStale || isDrawing}
        >
          {code ? (
            <code.ReadingsSection
              readings={shownReadings}
              comparisons={view.comparisons}
              subject={view.subject}
              onPickMeter={handlePickMeter}
              chartView={state.chart}
              onChartViewChange={handleChartView}
            />
          ) : (
            <ReadingsSkeleton />
          )}
        </div>
      ) : null}
      <span hidden data-testid="url-state">
        {serializeCheckUrl(state)}
      </span>
    </Stack>
  );
}
