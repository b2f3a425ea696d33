import { Title } from '@mantine/core';
import type { LocationReadings } from '@cm/contracts/check.ts';
import { formatOffset } from '@cm/contracts/zoned-time.ts';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEnergy } from '@/lib/format.ts';
import { formatIsoInZone, formatLocal, formatSpan } from '../model/local-format.ts';
import { offsetChanges } from '@cm/contracts/zoned-time.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import classes from '../check.module.css';

/**
 * What a person should know about the range, in words: DST days, meter exchanges and other events,
 * gaps, and billing periods that span several buckets (one known energy, spread unknown).
 */
export const NotesPanel = memo(function NotesPanel({ readings }: { readings: LocationReadings }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const tz = readings.location.timeZone;
  const dst = offsetChanges(Date.parse(readings.from), Date.parse(readings.to), tz);
  const events = readings.meters.flatMap((meter) =>
    meter.events.map((event) => ({ ...event, meterInd: meter.meterInd })),
  );
  const gaps = readings.meters.flatMap((meter) => meter.gaps);
  const periods = readings.meters.flatMap((meter) => meter.periods);
  if (events.length === 0 && gaps.length === 0 && dst.length === 0 && periods.length === 0) return null;
  return (
    <SectionPanel labelledBy="cm-notes-title">
      <Title order={2} size="h4" id="cm-notes-title" mb="xs">
        {t('check.notes.title')}
      </Title>
      <ul className={classes.notes} data-testid="notes">
        {dst.map((change) => (
          <li key={`dst-${change.at}`}>
            {t('check.notes.dst', {
              at: formatLocal(change.at, locale, tz),
              from: `UTC${formatOffset(change.fromOffset)}`,
              to: `UTC${formatOffset(change.toOffset)}`,
              hours: 24 + (change.fromOffset - change.toOffset) / 60,
            })}
          </li>
        ))}
        {events.map((event, index) => (
          <li key={`event-${index}`} data-event={event.type}>
            {t(`check.notes.event.${event.type}`, {
              at: formatIsoInZone(event.at, locale, tz),
              meterNumber: event.meterNumber,
              meterInd: event.meterInd,
            })}
          </li>
        ))}
        {gaps.map((gap, index) => (
          <li key={`gap-${index}`} data-gap>
            {gap.consumption === null
              ? t('check.notes.gapUnknown', {
                  count: gap.missingIntervals,
                  ...formatSpan(gap.from, gap.to, locale, tz),
                })
              : t('check.notes.gap', {
                  count: gap.missingIntervals,
                  ...formatSpan(gap.from, gap.to, locale, tz),
                  energy: formatEnergy(gap.consumption, locale),
                })}
          </li>
        ))}
        {periods.map((period, index) => (
          <li key={`period-${index}`} data-period>
            {t(`check.notes.period.${period.channel}`, {
              ...formatSpan(period.from, period.to, locale, tz),
              energy: formatEnergy(period.consumption, locale),
              quality: t(`check.corrections.quality.${period.quality}`),
            })}
          </li>
        ))}
      </ul>
    </SectionPanel>
  );
});
