import { Alert, Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconAlertCircle } from '@tabler/icons-react';
import type { Granularity, LocationReadings } from '@cm/contracts/check.ts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAppSelector } from '@/app/hooks.ts';
import { PRODUCT_NAME } from '@/lib/config.ts';
import {
  toCallFailure,
  useGetLocationReadingsQuery,
  useGetMeterInfoQuery,
  type CallFailure,
  type ReadingsArgs,
} from './api.ts';
import {
  effectiveGranularity,
  previousPeriod,
  resolvePreset,
  samePeriodLastYear,
  validateRange,
  type DateRange,
} from './date-range.ts';
import { LookupPanel, type MeterOption } from './lookup-panel.tsx';
import { MeterCard, MeterCardSkeleton } from './meter-card.tsx';
import { RangeControls, type RangeErrors } from './range-controls.tsx';
import { ReadingsSection, ReadingsSkeleton } from './readings-section.tsx';
import type { ComparisonTotal } from './totals-panel.tsx';
import { useCheckUrl } from './use-check-url.ts';
import { useNow } from './use-now.ts';
import { serializeCheckUrl, type CheckTarget, type CheckUrlState } from './url-state.ts';
import { localDateOf } from './zoned-time.ts';
import classes from './check.module.css';

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
  failure: CallFailure | null,
  param: string,
  t: (key: string, options?: Record<string, unknown>) => string,
): string | null {
  if (!failure || failure.param !== param) return null;
  if (failure.status === 404 && param === 'name') return t('check.errors.locationNotFound');
  if (failure.status === 404 && param === 'meterInd') return t('check.errors.meterIndNotFound');
  if (failure.status === 400) return t(`check.errors.badParam.${param}`, { detail: failure.message ?? '' });
  return null;
}

/** The check page: what is this meter, is it working, how much did it use. */
export function CheckPage() {
  const { t, i18n } = useTranslation();
  const [state, setState] = useCheckUrl();
  const suggestions = useAppSelector((root) => root.layout.suggestions);
  const { target } = state;
  const now = useNow();

  useDocumentTitle(
    `${target.kind === 'meter' ? `${target.meterNumber} · ` : target.kind === 'location' ? `${target.name} · ` : ''}${t('check.title')} · ${PRODUCT_NAME}`,
  );

  // A meter: its information first (location, meter indicator, zone), then its readings.
  const meterQuery = useGetMeterInfoQuery(target.kind === 'meter' ? target.meterNumber : '', {
    skip: target.kind !== 'meter',
  });
  const meterInfo = target.kind === 'meter' ? meterQuery.data : undefined;
  const meterFailure = target.kind === 'meter' ? toCallFailure(meterQuery.error) : null;

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
  const metersFailure = target.kind === 'location' ? toCallFailure(metersQuery.error) : null;
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
  const readingsFailure = readingsArgs ? toCallFailure(readingsQuery.error) : null;
  // While new data loads, the previous answer stays on screen (dimmed) instead of a flash of skeletons.
  const readings = readingsArgs && !readingsQuery.isError ? readingsQuery.data : undefined;
  // The dates of the answer on screen (the previous one while the next loads).
  const shownRange: DateRange | null = readings
    ? {
        from: localDateOf(Date.parse(readings.from), readings.location.timeZone),
        to: localDateOf(Date.parse(readings.to) - 1, readings.location.timeZone),
      }
    : null;

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

  const update = (next: Partial<CheckUrlState>) => setState({ ...state, ...next });
  const handleTarget = (next: CheckTarget) => update({ target: next });

  const tr = (key: string, options?: Record<string, unknown>) => t(key, options ?? {});
  const rangeErrors: RangeErrors = {
    from: fieldMessage(readingsFailure, 'From', tr),
    to: fieldMessage(readingsFailure, 'To', tr),
    granularity: fieldMessage(readingsFailure, 'granularity', tr),
  };
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

  const card = meterInfo ? (
    <MeterCard now={now} meter={meterInfo} meterNumbers={readings?.meters[0]?.meterNumbers} />
  ) : readings && readings.meters.length === 1 && readings.meters[0] ? (
    <MeterCard now={now} meter={readings.meters[0].meter} meterNumbers={readings.meters[0].meterNumbers} />
  ) : null;
  const isLoadingCard =
    (target.kind === 'meter' && meterQuery.isLoading) ||
    (target.kind === 'location' && target.meterInd !== 'all' && !readings && readingsQuery.isLoading);
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
        suggestions={suggestions}
        meterError={meterError}
        locationError={locationError}
        meterIndError={meterIndError}
        onSubmit={handleTarget}
      />

      {target.kind === 'none' ? (
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
      ) : null}

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
          resolved={range && !rangeProblem ? range : null}
          granularity={state.granularity}
          effective={granularity}
          timeZone={timeZone}
          errors={{
            ...rangeErrors,
            ...(rangeProblem
              ? {
                  [rangeProblem.field]: t(
                    rangeProblem.reason === 'order'
                      ? 'check.range.errors.order'
                      : 'check.range.errors.invalid',
                  ),
                }
              : {}),
          }}
          onChange={(nextRange, nextGranularity) =>
            update({ range: nextRange, granularity: nextGranularity })
          }
        />
      ) : null}

      {readingsArgs && !readings && readingsQuery.isFetching ? <ReadingsSkeleton /> : null}
      {readings && shownRange ? (
        <div
          className={readingsQuery.isFetching ? classes.stale : undefined}
          aria-busy={readingsQuery.isFetching}
        >
          <ReadingsSection
            readings={readings}
            range={shownRange}
            comparisons={comparisons}
            subject={subject}
            onPickMeter={(ind) => {
              if (target.kind === 'location')
                handleTarget({ kind: 'location', name: target.name, meterInd: ind });
            }}
          />
        </div>
      ) : null}
      <span hidden data-testid="url-state">
        {serializeCheckUrl(state)}
      </span>
    </Stack>
  );
}
