import { Button, Group, NativeSelect, Text, TextInput } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { memo, type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Granularity } from '@cm/contracts/check.ts';
import {
  granularityChoices,
  isGranularityChoice,
  isPresetId,
  presetIds,
  validateRange,
  type DateRange,
  type GranularityChoice,
} from '../model/date-range.ts';
import { formatDateRange, formatUtcOffset } from '../model/local-format.ts';
import type { RangeChoice } from '../model/url-state.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import classes from '../check.module.css';

/** Messages next to the fields, already translated (the server's 400s and the form's own checks). */
export interface RangeErrors {
  from: string | null;
  to: string | null;
  granularity: string | null;
}

interface RangeControlsProps {
  range: RangeChoice;
  /** The dates the choice stands for (null while the location's zone is unknown). */
  resolved: DateRange | null;
  granularity: GranularityChoice;
  effective: Granularity | null;
  timeZone: string | null;
  errors: RangeErrors;
  now: number;
  /**
   * What the person changed, and only that: the page merges it onto the address as it is then. A
   * change never repeats the other setting from these props, which may be a render behind the
   * address (a Detail chosen right after Apply once put the range before Apply back).
   */
  onChange: (change: RangeChange) => void;
}

/** A change of the range, of the granularity, or of both. */
export interface RangeChange {
  range?: RangeChoice;
  granularity?: GranularityChoice;
}

/** Shallow, but the errors and the resolved dates by value: the page builds those objects on each render. */
function sameProps(a: RangeControlsProps, b: RangeControlsProps): boolean {
  const keys = Object.keys(a) as (keyof RangeControlsProps)[];
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => {
      if (key === 'errors')
        return (
          a.errors.from === b.errors.from &&
          a.errors.to === b.errors.to &&
          a.errors.granularity === b.errors.granularity
        );
      if (key === 'resolved')
        return a.resolved?.from === b.resolved?.from && a.resolved?.to === b.resolved?.to;
      return Object.is(a[key], b[key]);
    })
  );
}

/**
 * Date range presets or custom dates, and the granularity; always in the location's time zone,
 * and saying so. Keyed by the page on the state in force, so the custom fields restart with it.
 */
export const RangeControls = memo(function RangeControls({
  range,
  resolved,
  granularity,
  effective,
  timeZone,
  errors,
  now,
  onChange,
}: RangeControlsProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const isCustom = range.kind === 'custom';
  const [draft, setDraft] = useState<DateRange>(
    range.kind === 'custom' ? { from: range.from, to: range.to } : (resolved ?? { from: '', to: '' }),
  );
  const [draftError, setDraftError] = useState<{ field: 'from' | 'to'; reason: 'invalid' | 'order' } | null>(
    null,
  );

  function handlePreset(value: string) {
    if (isPresetId(value)) onChange({ range: { kind: 'preset', preset: value } });
    else if (value === 'custom' && resolved) onChange({ range: { kind: 'custom', ...resolved } });
  }

  function handleApply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = validateRange(draft);
    setDraftError(problem);
    if (!problem) onChange({ range: { kind: 'custom', ...draft } });
  }

  const draftMessage = (field: 'from' | 'to') =>
    draftError?.field === field
      ? t(draftError.reason === 'order' ? 'check.range.errors.order' : 'check.range.errors.invalid')
      : null;

  const granularityLabel = (choice: GranularityChoice) =>
    choice === 'auto' && effective
      ? t('check.granularity.autoWith', { granularity: t(`check.granularity.${effective}`) })
      : t(`check.granularity.${choice}`);

  return (
    <SectionPanel label={t('check.range.title')} noPrint>
      <form onSubmit={handleApply} noValidate>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <NativeSelect
            label={t('check.range.period')}
            value={isCustom ? 'custom' : range.preset}
            onChange={(event) => handlePreset(event.currentTarget.value)}
            data={[
              ...presetIds.map((id) => ({ value: id, label: t(`check.range.preset.${id}`) })),
              { value: 'custom', label: t('check.range.preset.custom') },
            ]}
            className={classes.rangeField}
            name="preset"
          />
          {isCustom ? (
            <>
              <TextInput
                type="date"
                label={t('check.range.from')}
                value={draft.from}
                onChange={(event) => setDraft({ ...draft, from: event.currentTarget.value })}
                error={draftMessage('from') ?? errors.from}
                className={classes.rangeField}
                name="from"
                required
              />
              <TextInput
                type="date"
                label={t('check.range.to')}
                value={draft.to}
                onChange={(event) => setDraft({ ...draft, to: event.currentTarget.value })}
                error={draftMessage('to') ?? errors.to}
                className={classes.rangeField}
                name="to"
                required
              />
              <Button type="submit" variant="light" className={classes.submit}>
                {t('check.range.apply')}
              </Button>
            </>
          ) : null}
          <NativeSelect
            label={t('check.range.granularity')}
            value={granularity}
            onChange={(event) => {
              const value = event.currentTarget.value;
              if (isGranularityChoice(value)) onChange({ granularity: value });
            }}
            data={granularityChoices.map((choice) => ({ value: choice, label: granularityLabel(choice) }))}
            error={errors.granularity}
            className={classes.rangeField}
            name="granularity"
          />
        </Group>
      </form>
      {!isCustom && (errors.from ?? errors.to) ? (
        <Text c="red" size="sm" mt="xs" role="alert">
          {errors.from ?? errors.to}
        </Text>
      ) : null}
      {resolved && timeZone ? (
        <Text size="sm" c="dimmed" mt="xs" className={classes.zoneNote}>
          <IconClock size={14} aria-hidden />
          {t('check.range.inZone', {
            range: formatDateRange(resolved.from, resolved.to, locale),
            timeZone,
            offset: formatUtcOffset(now, timeZone),
          })}
        </Text>
      ) : null}
    </SectionPanel>
  );
}, sameProps);
