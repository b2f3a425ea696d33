import { Autocomplete, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBolt, IconMapPin, IconSearch } from '@tabler/icons-react';
import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import { memo, type FormEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchQuery, useSuggestions } from '@/lib/bookmarks-api.ts';
import { useGetLocationReadingsQuery } from '../api.ts';
import type { CheckTarget } from '../model/url-state.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import { SegmentedChoice } from '@/components/segmented-choice.tsx';
import classes from '../check.module.css';
import { meterOptionText } from '../meter/meter-name.ts';
import { meterNumberOf } from './meter-text.ts';

const SEARCH_DEBOUNCE_MS = 200;
// The suggestions' list exists only while it is open: Mantine keeps it mounted (hidden) by default,
// which renders, portals and measures it as the page loads (issue 38); nothing points at it while
// closed (the input's aria-controls is set only when open).
const DROPDOWN_WHEN_OPEN = { keepMounted: false } as const;

/** A meter indicator a location holds, for the meter select. */
export interface MeterOption {
  meterInd: number;
  meterNumber: string;
  /** What people call it ("Apt C-101"); '' when unnamed. */
  label: string;
}

interface LookupPanelProps {
  target: CheckTarget;
  /** Today as a UTC date: the one-day answer that lists a location's meters is shared with the page. */
  todayUtc: string;
  meterError: string | null;
  locationError: string | null;
  meterIndError: string | null;
  onSubmit: (target: CheckTarget) => void;
}

/**
 * The typeahead's options: titles (what the field takes), each with its subtitle to show beside
 * it, and the items offered with the text they answer (what Check resolves a typed name with).
 */
function useTypeahead(kind: Suggestion['kind'], query: string, suggestions: Suggestion[]) {
  const [debounced] = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  const { data, isFetching } = useSearchQuery(debounced, { skip: debounced === '' });
  return useMemo(() => {
    const subtitles = new Map<string, string>();
    const source = debounced === '' ? suggestions : (data ?? []);
    const items = source.filter((item) => item.kind === kind);
    for (const item of items) if (!subtitles.has(item.title)) subtitles.set(item.title, item.subtitle);
    // While a newer search is on its way, the items answer an earlier text.
    return {
      titles: [...subtitles.keys()].slice(0, 20),
      subtitles,
      items,
      forText: isFetching ? '' : debounced,
    };
  }, [data, debounced, isFetching, kind, suggestions]);
}

/** An option as the typeahead lists it: "EM-10009" above "HVAC · Riverside Campus – Library". */
function optionWithSubtitle(subtitles: ReadonlyMap<string, string>) {
  return ({ option }: { option: { value: string } }) => {
    const subtitle = subtitles.get(option.value);
    return (
      <div>
        <Text size="sm">{option.value}</Text>
        {subtitle ? (
          <Text size="xs" c="dimmed">
            {subtitle}
          </Text>
        ) : null}
      </div>
    );
  };
}

/**
 * The two ways in: a meter number, or a location's public name and one of its meters. The page
 * keys it by target, so back/forward or a bookmark starts it afresh with the fields filled in.
 */
export const LookupPanel = memo(function LookupPanel(props: LookupPanelProps) {
  const { target, todayUtc, onSubmit } = props;
  // Suggestions from the navbar data (bookmarked first), shown before anything is typed.
  const suggestions = useSuggestions();
  const { t } = useTranslation();
  const [mode, setMode] = useState<'meter' | 'location'>(target.kind === 'location' ? 'location' : 'meter');
  const [meterText, setMeterText] = useState(target.kind === 'meter' ? target.meterNumber : '');
  const [locationText, setLocationText] = useState(target.kind === 'location' ? target.name : '');
  const [meterInd, setMeterInd] = useState<string>(
    target.kind === 'location' ? String(target.meterInd) : 'all',
  );
  // The fields' texts as the page opened them: the typeahead offers suggestions for those.
  const [typedFrom] = useState(() => ({
    meter: target.kind === 'meter' ? target.meterNumber : null,
    location: target.kind === 'location' ? target.name : null,
  }));
  const [emptyField, setEmptyField] = useState<'meter' | 'location' | null>(null);
  const formId = useId();
  // The location whose meters the select offers: the one in the URL, then whichever is picked.
  const [picked, setPicked] = useState<string | null>(target.kind === 'location' ? target.name : null);
  const { data: pickedMeters } = useGetLocationReadingsQuery(
    { name: picked ?? '', From: todayUtc, To: todayUtc, granularity: 'month' },
    { skip: picked === null },
  );
  const locationMeters: MeterOption[] | null = pickedMeters
    ? pickedMeters.meters.map((m) => ({
        meterInd: m.meterInd,
        meterNumber: m.meter.meterNumber,
        label: m.meter.label,
      }))
    : null;

  // The server is searched for what the person typed, not for the target the page opened with.
  const meterOptions = useTypeahead('meter', meterText === typedFrom.meter ? '' : meterText, suggestions);
  const locationOptions = useTypeahead(
    'location',
    locationText === typedFrom.location ? '' : locationText,
    suggestions,
  );

  function handleMeterSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // A meter's name or the caller's own name for it, as the typeahead offers it, is that meter.
    const meterNumber = meterNumberOf(meterText, meterOptions);
    if (meterNumber === '') {
      setEmptyField('meter');
      return;
    }
    setEmptyField(null);
    onSubmit({ kind: 'meter', meterNumber });
  }

  function handleLocationSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = locationText.trim();
    if (name === '') {
      setEmptyField('location');
      return;
    }
    setEmptyField(null);
    const ind = Number(meterInd);
    onSubmit({ kind: 'location', name, meterInd: Number.isInteger(ind) && ind > 0 ? ind : 'all' });
  }

  const meterSelectData = [
    { value: 'all', label: t('check.lookup.allMeters') },
    ...(locationMeters ?? []).map((m) => ({
      value: String(m.meterInd),
      label: meterOptionText(t, m),
    })),
  ];
  // Keep a meter indicator from the URL selectable before the location's list has loaded.
  if (meterInd !== 'all' && !meterSelectData.some((option) => option.value === meterInd)) {
    meterSelectData.push({ value: meterInd, label: t('check.lookup.meterIndOnly', { meterInd }) });
  }

  return (
    <SectionPanel label={t('check.lookup.title')} noPrint>
      <Stack gap="sm">
        <SegmentedChoice
          value={mode}
          onChange={setMode}
          data={[
            { value: 'meter', label: t('check.lookup.byMeter') },
            { value: 'location', label: t('check.lookup.byLocation') },
          ]}
          aria-label={t('check.lookup.mode')}
          className={classes.modeSwitch}
        />
        {mode === 'meter' ? (
          <form onSubmit={handleMeterSubmit} id={`${formId}-meter`} noValidate>
            <Group align="flex-start" gap="sm" wrap="wrap">
              <Autocomplete
                className={classes.grow}
                label={t('check.lookup.meterNumber')}
                description={t('check.lookup.meterNumberHint')}
                placeholder={t('check.lookup.meterNumberPlaceholder')}
                value={meterText}
                onChange={setMeterText}
                onOptionSubmit={(value) => onSubmit({ kind: 'meter', meterNumber: value })}
                data={meterOptions.titles}
                renderOption={optionWithSubtitle(meterOptions.subtitles)}
                filter={({ options }) => options}
                comboboxProps={DROPDOWN_WHEN_OPEN}
                leftSection={<IconBolt size={16} aria-hidden />}
                error={emptyField === 'meter' ? t('check.lookup.meterRequired') : props.meterError}
                autoComplete="off"
                spellCheck={false}
                name="meter"
              />
              <Button
                type="submit"
                leftSection={<IconSearch size={16} aria-hidden />}
                className={classes.submit}
              >
                {t('check.lookup.submit')}
              </Button>
            </Group>
          </form>
        ) : (
          <form onSubmit={handleLocationSubmit} id={`${formId}-location`} noValidate>
            <Group align="flex-start" gap="sm" wrap="wrap">
              <Autocomplete
                className={classes.grow}
                label={t('check.lookup.location')}
                description={t('check.lookup.locationHint')}
                placeholder={t('check.lookup.locationPlaceholder')}
                value={locationText}
                onChange={setLocationText}
                onBlur={() => {
                  const name = locationText.trim();
                  if (name !== '' && name !== picked) setPicked(name);
                }}
                onOptionSubmit={(value) => {
                  setLocationText(value);
                  setMeterInd('all');
                  setPicked(value);
                }}
                data={locationOptions.titles}
                renderOption={optionWithSubtitle(locationOptions.subtitles)}
                filter={({ options }) => options}
                comboboxProps={DROPDOWN_WHEN_OPEN}
                leftSection={<IconMapPin size={16} aria-hidden />}
                error={emptyField === 'location' ? t('check.lookup.locationRequired') : props.locationError}
                autoComplete="off"
                name="location"
              />
              <NativeSelect
                className={classes.meterSelect}
                label={t('check.lookup.meter')}
                description={t('check.lookup.meterHint')}
                value={meterInd}
                onChange={(event) => setMeterInd(event.currentTarget.value)}
                data={meterSelectData}
                error={props.meterIndError}
                name="meterInd"
              />
              <Button
                type="submit"
                leftSection={<IconSearch size={16} aria-hidden />}
                className={classes.submit}
              >
                {t('check.lookup.submit')}
              </Button>
            </Group>
          </form>
        )}
      </Stack>
    </SectionPanel>
  );
});
