import { Alert, Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconAlertCircle } from '@tabler/icons-react';
import type { Granularity, LocationReadings } from '@cm/contracts/check.ts';
import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSuggestions } from '@/lib/bookmarks-api.ts';
import { PRODUCT_NAME } from '@/lib/config.ts';
import { toFailure, type Failure } from '@/lib/http-client.ts';
import {
  preloadCheckParsers,
  useGetLocationReadingsQuery,
  useGetMeterInfoQuery,
  type ReadingsArgs,
} from './api.ts';
import {
  effectiveGranularity,
  previousPeriod,
  resolvePreset,
  samePeriodLastYear,
  validateRange,
  type DateRange,
} from './model/date-range.ts';
import { LookupPanel, type MeterOption } from './lookup/lookup-panel.tsx';
import { moduleLoader } from '@/lib/module-loader.ts';
import { MeterCard, MeterCardSkeleton } from './meter/meter-card.tsx';
import { RangeControls, type RangeErrors } from './range/range-controls.tsx';
import { ReadingsSkeleton } from './ui/readings-skeleton.tsx';
import type { ComparisonTotal } from './totals/totals-panel.tsx';
import { useCheckUrl } from './model/use-check-url.ts';
import { useNow } from './model/use-now.ts';
import { serializeCheckUrl, type CheckTarget, type CheckUrlState } from './model/url-state.ts';
import { localDateOf, primeOffsets } from './model/zoned-time.ts';
import classes from './check.module.css';

// The readings' panels (chart and uPlot, table, totals) are code of their own, fetched once a
// target is asked for: an empty page neither loads nor parses them.
const readingsCode = moduleLoader(() => import('./readings-section.tsx'));
const preloadReadingsCode = () => {
  void readingsCode.preload();
  void import('./table/table-panel.tsx').then((module) => module.preloadReadingsTable());
};

/** The comparison periods only need totals: monthly buckets keep those answers tiny. */
const COMPARISON_GRANULARITY: Granularity = 'month';

function sumConsumption(readings: LocationReadings | undefined): number | null {
  if (!readings || readings.meters.length === 0) return null;
  let milli = 0;
  for (const meter of readings.meters) {
    if (meter.totals.consumption === null) return null;
    milli += Math.round(meter.totals.consumption * 1000);
  }
  return milli / 1000;
}

/** Share of the period's intervals that have readings (1 = complete); null without an answer. */
function coverageOf(readings: LocationReadings | undefined): number | null {
  if (!readings || readings.meters.length === 0) return null;
  let present = 0;
  let missing = 0;
  for (const meter of readings.meters) {
    // n readings close n − 1 intervals.
    present += Math.max(0, meter.totals.readings - 1);
    missing += meter.totals.missingIntervals;
  }
  return present + missing === 0 ? null : present / (present + missing);
}

function useComparison(
  kind: ComparisonTotal['kind'],
  base: Omit<ReadingsArgs, 'From' | 'To' | 'granularity'> | null,
  range: DateRange | null,
): ComparisonTotal | null {
  const args =
    base && range ? { ...base, From: range.from, To: range.to, granularity: COMPARISON_GRANULARITY } : null;
  const query = useGetLocationReadingsQuery(
    args ?? { name: '', From: '', To: '', granularity: COMPARISON_GRANULARITY },
    { skip: args === null },
  );
  if (!range || !args) return null;
  return {
    kind,
    range,
    consumption: sumConsumption(query.data),
    coverage: coverageOf(query.data),
    isLoading: query.isFetching,
    isError: query.isError,
  };
}

/** Which field a failure belongs next to, translated by meaning (the server's words stay available as a detail). */
function fieldMessage(
  failure: Failure | null,
  param: string,
  t: (key: string, options?: Record<string, unknown>) => string,
): string | null {
  if (!failure || failure.param !== param) return null;
  if (failure.status === 404 && param === 'name') return t('check.errors.locationNotFound');
  if (failure.status === 404 && param === 'meterInd') return t('check.errors.meterIndNotFound');
  if (failure.status === 400) return t(`check.errors.badParam.${param}`, { detail: failure.message ?? '' });
  return null;
}

/**
 * Where to start: the caller's locations and meters as links. It reads the suggestions itself, so
 * their arrival re-renders this panel and the lookup, not the whole page.
 */
function StartPanel() {
  const { t } = useTranslation();
  const suggestions = useSuggestions();
  return (
    <Paper withBorder p="md" radius="md" className={classes.panel}>
      <Text fw={600}>{t('check.start.title')}</Text>
      <Text size="sm" c="dimmed" mb="xs">
        {t('check.start.text')}
      </Text>
      <Group gap="xs" wrap="wrap">
        {suggestions
          .filter((s) => s.kind !== 'page')
          .slice(0, 8)
          .map((s) => (
            <Anchor key={s.id} component={Link} to={s.link} size="sm" className={classes.chipLink}>
              {s.title}
            </Anchor>
          ))}
      </Group>
    </Paper>
  );
}

/** The check page: what is this meter, is it working, how much did it use. */
export function CheckPage() {
  const { t, i18n } = useTranslation();
  const [state, setState] = useCheckUrl();
  const { target } = state;
  const now = useNow();

  useDocumentTitle(
    `${target.kind === 'meter' ? `${target.meterNumber} · ` : target.kind === 'location' ? `${target.name} · ` : ''}${t('check.title')} · ${PRODUCT_NAME}`,
  );

  // The answers' schemas load once something is asked for (an empty page evaluates none).
  const hasTarget = target.kind !== 'none';
  useEffect(() => {
    if (hasTarget) preloadCheckParsers();
  }, [hasTarget]);

  // A meter: its information first (location, meter indicator, zone), then its readings.
  const meterQuery = useGetMeterInfoQuery(target.kind === 'meter' ? target.meterNumber : '', {
    skip: target.kind !== 'meter',
  });
  const meterInfo = target.kind === 'meter' ? meterQuery.data : undefined;
  const meterFailure = target.kind === 'meter' ? toFailure(meterQuery.error) : null;

  // A location: its meters (for the select) and its zone come from a one-day, one-bucket answer.
  const locationName = target.kind === 'location' ? target.name : (meterInfo?.location.publicName ?? null);
  const todayUtc = new Date(now).toISOString().slice(0, 10);
  const metersQuery = useGetLocationReadingsQuery(
    {
      name: target.kind === 'location' ? target.name : '',
      From: todayUtc,
      To: todayUtc,
      granularity: 'month',
    },
    { skip: target.kind !== 'location' },
  );
  const metersFailure = target.kind === 'location' ? toFailure(metersQuery.error) : null;
  const locationMeters: MeterOption[] | null = metersQuery.data
    ? metersQuery.data.meters.map((m) => ({ meterInd: m.meterInd, meterNumber: m.meter.meterNumber }))
    : null;

  const timeZone =
    meterInfo?.location.timeZone ??
    (target.kind === 'location' ? metersQuery.data?.location.timeZone : undefined) ??
    null;
  const meterInd =
    target.kind === 'meter'
      ? meterInfo?.meterInd
      : target.kind === 'location' && target.meterInd !== 'all'
        ? target.meterInd
        : undefined;
  const hasUnknownMeterInd =
    target.kind === 'location' &&
    target.meterInd !== 'all' &&
    locationMeters !== null &&
    !locationMeters.some((m) => m.meterInd === target.meterInd);

  const today = timeZone ? localDateOf(now, timeZone) : null;
  const range: DateRange | null =
    state.range.kind === 'custom'
      ? { from: state.range.from, to: state.range.to }
      : today
        ? resolvePreset(state.range.preset, today)
        : null;
  const rangeProblem = range && state.range.kind === 'custom' ? validateRange(range) : null;
  const granularity = range && !rangeProblem ? effectiveGranularity(state.granularity, range) : null;

  const base =
    locationName && timeZone && !hasUnknownMeterInd
      ? { name: locationName, ...(meterInd === undefined ? {} : { meterInd }) }
      : null;
  const readingsArgs: ReadingsArgs | null =
    base && range && granularity && !rangeProblem
      ? { ...base, From: range.from, To: range.to, granularity }
      : null;
  const readingsQuery = useGetLocationReadingsQuery(
    readingsArgs ?? { name: '', From: '', To: '', granularity: 'day' },
    { skip: readingsArgs === null },
  );
  const readingsFailure = readingsArgs ? toFailure(readingsQuery.error) : null;
  const askedFrom = readingsArgs?.From;
  const askedTo = readingsArgs?.To;
  // While the answer is on its way: learn the zone's offsets over the range (the chart's DST marks
  // and time axis need them) and fetch the code of the panels and of the table.
  useEffect(() => {
    if (!askedFrom || !askedTo || !timeZone) return;
    primeOffsets(askedFrom, askedTo, timeZone);
    preloadReadingsCode();
  }, [askedFrom, askedTo, timeZone]);
  // While new data loads, the previous answer stays on screen (dimmed) instead of a flash of skeletons.
  const readings = readingsArgs && !readingsQuery.isError ? readingsQuery.data : undefined;
  const code = readingsCode.useModule(readingsArgs !== null);

  const comparisonRanges = useMemo(
    () =>
      range && !rangeProblem
        ? { previous: previousPeriod(range), lastYear: samePeriodLastYear(range) }
        : null,
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the dates are the identity
    [range?.from, range?.to, rangeProblem],
  );
  const previous = useComparison('previous', base, comparisonRanges?.previous ?? null);
  const lastYear = useComparison('lastYear', base, comparisonRanges?.lastYear ?? null);
  const comparisons = [previous, lastYear].filter((c) => c !== null);

  // Stable while the URL stays: an answer arriving re-renders neither the lookup nor the range controls.
  const update = useCallback(
    (next: Partial<CheckUrlState>) => setState({ ...state, ...next }),
    [state, setState],
  );
  const handleTarget = useCallback((next: CheckTarget) => update({ target: next }), [update]);
  const handleRange = useCallback(
    (nextRange: CheckUrlState['range'], nextGranularity: CheckUrlState['granularity']) =>
      update({ range: nextRange, granularity: nextGranularity }),
    [update],
  );
  const handlePickMeter = useCallback(
    (ind: number) => {
      if (target.kind === 'location') handleTarget({ kind: 'location', name: target.name, meterInd: ind });
    },
    [target, handleTarget],
  );

  const tr = (key: string, options?: Record<string, unknown>) => t(key, options ?? {});
  const rangeErrors: RangeErrors = {
    from: fieldMessage(readingsFailure, 'From', tr),
    to: fieldMessage(readingsFailure, 'To', tr),
    granularity: fieldMessage(readingsFailure, 'granularity', tr),
  };
  if (rangeProblem)
    rangeErrors[rangeProblem.field] = t(
      rangeProblem.reason === 'order' ? 'check.range.errors.order' : 'check.range.errors.invalid',
    );
  const resolvedFrom = range && !rangeProblem ? range.from : null;
  const resolvedTo = range && !rangeProblem ? range.to : null;
  const resolved = useMemo(
    () => (resolvedFrom && resolvedTo ? { from: resolvedFrom, to: resolvedTo } : null),
    [resolvedFrom, resolvedTo],
  );
  const isMeterNotFound = meterFailure?.status === 404;
  const meterError = isMeterNotFound
    ? t('check.errors.meterNotFound')
    : meterFailure?.status === 400
      ? t('check.errors.badParam.meterNumber', { detail: meterFailure.message ?? '' })
      : null;
  const locationError = fieldMessage(metersFailure, 'name', tr) ?? fieldMessage(readingsFailure, 'name', tr);
  const meterIndError = hasUnknownMeterInd
    ? t('check.errors.meterIndNotFound')
    : fieldMessage(readingsFailure, 'meterInd', tr);
  const otherFailure =
    (meterFailure && !isMeterNotFound && meterFailure.status !== 400 ? meterFailure : null) ??
    (metersFailure && metersFailure.param === null ? metersFailure : null) ??
    (readingsFailure && readingsFailure.param === null ? readingsFailure : null);

  // A location's meter: from the readings on screen when they are its own, else from the meter
  // list, which answers first (the card is there before a year of readings is).
  const shownMeter = readings?.meters.length === 1 ? readings.meters[0] : undefined;
  const listedMeter =
    target.kind === 'location' && target.meterInd !== 'all'
      ? metersQuery.data?.meters.find((m) => m.meterInd === target.meterInd)
      : undefined;
  const locationMeter =
    shownMeter && (!listedMeter || shownMeter.meterInd === listedMeter.meterInd) ? shownMeter : listedMeter;
  const card = meterInfo ? (
    <MeterCard now={now} meter={meterInfo} meterNumbers={readings?.meters[0]?.meterNumbers} />
  ) : locationMeter ? (
    <MeterCard now={now} meter={locationMeter.meter} meterNumbers={locationMeter.meterNumbers} />
  ) : null;
  const isLoadingCard =
    (target.kind === 'meter' && meterQuery.isLoading) ||
    (target.kind === 'location' &&
      target.meterInd !== 'all' &&
      !card &&
      (readingsQuery.isLoading || metersQuery.isLoading));
  const subject =
    target.kind === 'meter'
      ? target.meterNumber
      : target.kind === 'location'
        ? target.meterInd === 'all'
          ? target.name
          : (readings?.meters[0]?.meter.meterNumber ?? target.name)
        : '';

  return (
    <Stack gap="md" className={classes.page} lang={i18n.language} data-testid="check-page">
      <div className={classes.noPrint}>
        <Title order={1}>{t('check.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('check.subtitle')}
        </Text>
      </div>

      <LookupPanel
        key={
          target.kind === 'meter'
            ? `m:${target.meterNumber}`
            : target.kind === 'location'
              ? `l:${target.name}:${target.meterInd}`
              : 'none'
        }
        target={target}
        todayUtc={todayUtc}
        meterError={meterError}
        locationError={locationError}
        meterIndError={meterIndError}
        onSubmit={handleTarget}
      />

      {target.kind === 'none' ? <StartPanel /> : null}

      {isMeterNotFound ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle aria-hidden />}
          title={t('check.errors.notFoundTitle')}
          data-testid="not-found"
          role="alert"
        >
          {t('check.errors.meterNotFoundText', {
            meterNumber: target.kind === 'meter' ? target.meterNumber : '',
          })}
        </Alert>
      ) : null}
      {otherFailure ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle aria-hidden />}
          title={t('check.errors.failedTitle')}
          role="alert"
        >
          {otherFailure.status === 'NETWORK_ERROR' ? t('check.errors.network') : t('check.errors.failed')}
        </Alert>
      ) : null}

      {isLoadingCard ? <MeterCardSkeleton /> : card}

      {target.kind !== 'none' && !isMeterNotFound && locationError === null ? (
        <RangeControls
          key={`${serializeCheckUrl({ ...state, target: { kind: 'none' } })}|${range?.from ?? ''}|${range?.to ?? ''}`}
          now={now}
          range={state.range}
          resolved={resolved}
          granularity={state.granularity}
          effective={granularity}
          timeZone={timeZone}
          errors={rangeErrors}
          onChange={handleRange}
        />
      ) : null}

      {readingsArgs && !readings && readingsQuery.isFetching ? <ReadingsSkeleton /> : null}
      {readings ? (
        <div
          className={readingsQuery.isFetching ? classes.stale : undefined}
          aria-busy={readingsQuery.isFetching}
        >
          {code ? (
            <code.ReadingsSection
              readings={readings}
              comparisons={comparisons}
              subject={subject}
              onPickMeter={handlePickMeter}
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
