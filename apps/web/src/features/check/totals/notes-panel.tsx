import { Anchor, Text, Title } from '@mantine/core';
import type { LocationReadings, MeterReadings } from '@cm/contracts/check.ts';
import { formatOffset, offsetChanges } from '@cm/contracts/zoned-time.ts';
import { memo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEnergy } from '@/lib/format.ts';
import { formatIsoInZone, formatLocal, formatSpan } from '../model/local-format.ts';
import { meterOptionText } from '../meter/meter-name.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import classes from '../check.module.css';
import { groupNotes } from './note-groups.ts';

interface Note {
  kind: string;
  /** The meter indicator the note is about; null for the location (a clock change). */
  meterInd: number | null;
  key: string;
  text: ReactNode;
  data?: Record<string, string>;
}

/**
 * A meter's gaps, one per span: the same span missing on both channels (a solar meter's import
 * and export) is one note naming both, not two identical lines (issue 34.8).
 */
function gapsBySpan(meter: MeterReadings) {
  const bySpan = new Map<string, { gap: MeterReadings['gaps'][number]; channels: string[] }>();
  for (const gap of meter.gaps) {
    const span = `${gap.from}|${gap.to}|${gap.missingIntervals}`;
    const found = bySpan.get(span);
    // The note's energy is the answer's own channel's, listed first.
    if (found) found.channels.push(gap.channel);
    else bySpan.set(span, { gap, channels: [gap.channel] });
  }
  return [...bySpan.values()];
}

/**
 * What a person should know about the range, in words: DST days, meter exchanges and other events,
 * gaps, and billing periods that span several buckets (one known energy, spread unknown). Notes
 * are grouped per kind and meter, each meter's named with a link to its rows in the table; each
 * group shows its first few and folds the rest behind "Show N more".
 */
export const NotesPanel = memo(function NotesPanel({
  readings,
  tableId,
}: {
  readings: LocationReadings;
  /** The readings table's id: each meter's notes link to its rows there. */
  tableId: string;
}) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const locale = i18n.language;
  const tz = readings.location.timeZone;
  const notes: Note[] = [];
  for (const change of offsetChanges(Date.parse(readings.from), Date.parse(readings.to), tz))
    notes.push({
      kind: 'dst',
      meterInd: null,
      key: `dst-${change.at}`,
      text: t('check.notes.dst', {
        at: formatLocal(change.at, locale, tz),
        from: `UTC${formatOffset(change.fromOffset)}`,
        to: `UTC${formatOffset(change.toOffset)}`,
        hours: 24 + (change.fromOffset - change.toOffset) / 60,
      }),
    });
  for (const meter of readings.meters) {
    const { meterInd } = meter;
    meter.events.forEach((event, index) =>
      notes.push({
        kind: `event-${event.type}`,
        meterInd,
        key: `event-${meterInd}-${index}`,
        data: { 'data-event': event.type },
        text: t(`check.notes.event.${event.type}`, {
          at: formatIsoInZone(event.at, locale, tz),
          meterNumber: event.meterNumber,
          meterInd,
        }),
      }),
    );
    const hasExport = meter.channels.includes('export');
    gapsBySpan(meter).forEach(({ gap, channels }, index) => {
      const span = { count: gap.missingIntervals, ...formatSpan(gap.from, gap.to, locale, tz) };
      const text =
        gap.consumption === null
          ? t('check.notes.gapUnknown', span)
          : t('check.notes.gap', { ...span, energy: formatEnergy(gap.consumption, locale) });
      notes.push({
        kind: 'gap',
        meterInd,
        key: `gap-${meterInd}-${index}`,
        data: { 'data-gap': '' },
        text: hasExport
          ? `${text} ${t(channels.length > 1 ? 'check.notes.bothChannels' : `check.notes.channel.${gap.channel}`)}`
          : text,
      });
    });
    meter.periods.forEach((period, index) =>
      notes.push({
        kind: 'period',
        meterInd,
        key: `period-${meterInd}-${index}`,
        data: { 'data-period': '' },
        text: t(`check.notes.period.${period.channel}`, {
          ...formatSpan(period.from, period.to, locale, tz),
          energy: formatEnergy(period.consumption, locale),
          quality: t(`check.corrections.quality.${period.quality}`),
        }),
      }),
    );
  }
  if (notes.length === 0) return null;
  const meterName = (meterInd: number) => {
    const found = readings.meters.find((meter) => meter.meterInd === meterInd);
    return found
      ? meterOptionText(t, { meterInd, meterNumber: found.meter.meterNumber, label: found.meter.label })
      : '';
  };
  const groups = groupNotes(notes, (note) => `${note.kind}|${note.meterInd ?? ''}`, open);
  return (
    <SectionPanel labelledBy="cm-notes-title">
      <Title order={2} size="h4" id="cm-notes-title" mb="xs">
        {t('check.notes.title')}
      </Title>
      <ul className={classes.noteGroups} data-testid="notes">
        {groups.map((group) => {
          const meterInd = group.shown[0]?.meterInd ?? null;
          return (
            <li key={group.kind} data-testid="notes-group">
              {meterInd === null ? null : (
                <Text size="sm" fw={600} component="div">
                  {readings.meters.length > 1 ? `${meterName(meterInd)} · ` : null}
                  <Anchor href={`#${tableId}`} size="sm">
                    {t('check.notes.seeRows')}
                  </Anchor>
                </Text>
              )}
              <ul className={classes.notes}>
                {group.shown.map((note) => (
                  <li key={note.key} {...note.data}>
                    {note.text}
                  </li>
                ))}
                {group.more > 0 ? (
                  <li className={classes.noPrint}>
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      onClick={() => setOpen(new Set([...open, group.kind]))}
                    >
                      {t('check.notes.showMore', { count: group.more })}
                    </Anchor>
                  </li>
                ) : null}
              </ul>
            </li>
          );
        })}
      </ul>
    </SectionPanel>
  );
});
