import { Anchor, Title } from '@mantine/core';
import type { LocationReadings } from '@cm/contracts/check.ts';
import { formatOffset, offsetChanges } from '@cm/contracts/zoned-time.ts';
import { memo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEnergy } from '@/lib/format.ts';
import { formatIsoInZone, formatLocal, formatSpan } from '../model/local-format.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import classes from '../check.module.css';
import { groupNotes } from './note-groups.ts';

/**
 * What a person should know about the range, in words: DST days, meter exchanges and other events,
 * gaps, and billing periods that span several buckets (one known energy, spread unknown). Each
 * kind shows its first few and folds the rest behind "Show N more".
 */
export const NotesPanel = memo(function NotesPanel({ readings }: { readings: LocationReadings }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const locale = i18n.language;
  const tz = readings.location.timeZone;
  const notes: { kind: string; key: string; text: ReactNode; data?: Record<string, string> }[] = [];
  for (const change of offsetChanges(Date.parse(readings.from), Date.parse(readings.to), tz))
    notes.push({
      kind: 'dst',
      key: `dst-${change.at}`,
      text: t('check.notes.dst', {
        at: formatLocal(change.at, locale, tz),
        from: `UTC${formatOffset(change.fromOffset)}`,
        to: `UTC${formatOffset(change.toOffset)}`,
        hours: 24 + (change.fromOffset - change.toOffset) / 60,
      }),
    });
  for (const meter of readings.meters) {
    meter.events.forEach((event, index) =>
      notes.push({
        kind: `event-${event.type}`,
        key: `event-${meter.meterInd}-${index}`,
        data: { 'data-event': event.type },
        text: t(`check.notes.event.${event.type}`, {
          at: formatIsoInZone(event.at, locale, tz),
          meterNumber: event.meterNumber,
          meterInd: meter.meterInd,
        }),
      }),
    );
  }
  readings.meters
    .flatMap((meter) => meter.gaps)
    .forEach((gap, index) =>
      notes.push({
        kind: 'gap',
        key: `gap-${index}`,
        data: { 'data-gap': '' },
        text:
          gap.consumption === null
            ? t('check.notes.gapUnknown', {
                count: gap.missingIntervals,
                ...formatSpan(gap.from, gap.to, locale, tz),
              })
            : t('check.notes.gap', {
                count: gap.missingIntervals,
                ...formatSpan(gap.from, gap.to, locale, tz),
                energy: formatEnergy(gap.consumption, locale),
              }),
      }),
    );
  readings.meters
    .flatMap((meter) => meter.periods)
    .forEach((period, index) =>
      notes.push({
        kind: 'period',
        key: `period-${index}`,
        data: { 'data-period': '' },
        text: t(`check.notes.period.${period.channel}`, {
          ...formatSpan(period.from, period.to, locale, tz),
          energy: formatEnergy(period.consumption, locale),
          quality: t(`check.corrections.quality.${period.quality}`),
        }),
      }),
    );
  if (notes.length === 0) return null;
  return (
    <SectionPanel labelledBy="cm-notes-title">
      <Title order={2} size="h4" id="cm-notes-title" mb="xs">
        {t('check.notes.title')}
      </Title>
      <ul className={classes.notes} data-testid="notes">
        {groupNotes(notes, (note) => note.kind, open).map((group) => [
          ...group.shown.map((note) => (
            <li key={note.key} {...note.data}>
              {note.text}
            </li>
          )),
          group.more > 0 ? (
            <li key={`${group.kind}-more`} className={classes.noPrint}>
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => setOpen(new Set([...open, group.kind]))}
              >
                {t('check.notes.showMore', { count: group.more })}
              </Anchor>
            </li>
          ) : null,
        ])}
      </ul>
    </SectionPanel>
  );
});
