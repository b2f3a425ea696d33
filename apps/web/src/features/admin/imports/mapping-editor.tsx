import {
  Fieldset,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Switch,
  TextInput,
} from '@mantine/core';
import type { ColumnRef, DelimitedMapping } from '@cm/contracts/import-mapping.ts';
import { dateLayouts, valueUnits } from '@cm/contracts/import-mapping.ts';
import { useTranslation } from 'react-i18next';

/** A column as typed: digits are a position (0, 1, …), anything else a header name. */
export const columnOf = (text: string): ColumnRef => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : text);
const shown = (ref: ColumnRef | undefined) => (ref === undefined ? '' : String(ref));
/** Words as typed, comma-separated. */
export const wordsOf = (text: string) =>
  text
    .split(',')
    .map((word) => word.trim())
    .filter(Boolean);

/** Interval lengths a wide row may have (each divides a day). */
const WIDE_MINUTES = [5, 10, 15, 30, 60];

interface Props {
  mapping: DelimitedMapping;
  onChange: (mapping: DelimitedMapping) => void;
  zones: string[];
}

/**
 * How a delimited file's columns become readings, field by field, as the contract names them; the
 * preview follows every change.
 */
export function MappingEditor({ mapping, onChange, zones }: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<DelimitedMapping>) => onChange({ ...mapping, ...patch });
  const setTime = (patch: Partial<DelimitedMapping['time']>) => set({ time: { ...mapping.time, ...patch } });
  const setValue = (patch: Partial<DelimitedMapping['value']>) =>
    set({ value: { ...mapping.value, ...patch } });
  const meterIsColumn = 'column' in mapping.meter;
  const channelIsColumn = 'column' in mapping.channel;
  const optionalColumn = (text: string) => (text.trim() === '' ? undefined : columnOf(text));
  const wide = mapping.wide;
  // Wide rows: the date only, one interval value per column from the first interval column on.
  const setWide = (isWide: boolean) =>
    set(
      isWide
        ? {
            wide: { intervalMinutes: mapping.intervalMinutes ?? 30 },
            time: { ...mapping.time, timeColumn: undefined, endColumn: undefined },
            value: { ...mapping.value, kind: 'interval' },
          }
        : { wide: undefined },
    );
  return (
    <Fieldset legend={t('admin.import.mapping.title')} data-testid="mapping-editor">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
        <Select
          label={t('admin.import.mapping.delimiter')}
          data={[
            { value: ',', label: t('admin.import.mapping.comma') },
            { value: ';', label: t('admin.import.mapping.semicolon') },
            { value: '\t', label: t('admin.import.mapping.tab') },
          ]}
          value={mapping.delimiter}
          onChange={(value) => value && set({ delimiter: value as DelimitedMapping['delimiter'] })}
          allowDeselect={false}
        />
        <Select
          label={t('admin.import.mapping.decimal')}
          data={[
            { value: '.', label: t('admin.import.mapping.point') },
            { value: ',', label: t('admin.import.mapping.comma') },
          ]}
          value={mapping.decimal}
          onChange={(value) => value && set({ decimal: value as DelimitedMapping['decimal'] })}
          allowDeselect={false}
        />
        <NumberInput
          label={t('admin.import.mapping.skipLines')}
          min={0}
          max={1000}
          value={mapping.skipLines}
          onChange={(value) => set({ skipLines: typeof value === 'number' ? value : 0 })}
        />
        <Switch
          label={t('admin.import.mapping.header')}
          checked={mapping.header}
          onChange={(event) => set({ header: event.currentTarget.checked })}
          mt="lg"
        />
        <Switch
          label={t('admin.import.mapping.wide')}
          description={t('admin.import.mapping.wideHint')}
          checked={wide !== undefined}
          onChange={(event) => setWide(event.currentTarget.checked)}
          mt="lg"
        />
        <TextInput
          label={wide ? t('admin.import.mapping.dateColumn') : t('admin.import.mapping.timeColumn')}
          description={t('admin.import.mapping.columnHint')}
          value={shown(mapping.time.column)}
          onChange={(event) => setTime({ column: columnOf(event.currentTarget.value) })}
        />
        {wide ? (
          <>
            <Select
              label={t('admin.import.mapping.wideMinutes')}
              data={WIDE_MINUTES.map((minutes) => ({
                value: String(minutes),
                label: t('admin.import.preview.minutes', { count: minutes }),
              }))}
              value={String(wide.intervalMinutes)}
              onChange={(value) => value && set({ wide: { ...wide, intervalMinutes: Number(value) } })}
              allowDeselect={false}
            />
            <NumberInput
              label={t('admin.import.mapping.wideCount')}
              placeholder={t('admin.import.mapping.wideCountAll')}
              min={1}
              max={1500}
              value={wide.count ?? ''}
              onChange={(value) =>
                set({ wide: { ...wide, count: typeof value === 'number' ? value : undefined } })
              }
            />
          </>
        ) : null}
        {wide ? null : (
          <>
            <TextInput
              label={t('admin.import.mapping.timeOfDayColumn')}
              value={shown(mapping.time.timeColumn)}
              onChange={(event) => setTime({ timeColumn: optionalColumn(event.currentTarget.value) })}
            />
            <TextInput
              label={t('admin.import.mapping.endColumn')}
              value={shown(mapping.time.endColumn)}
              onChange={(event) =>
                setTime({
                  endColumn: optionalColumn(event.currentTarget.value),
                  ...(event.currentTarget.value.trim() === '' ? {} : { stamp: 'start' as const }),
                })
              }
            />
          </>
        )}
        <Select
          label={t('admin.import.mapping.layout')}
          data={dateLayouts.map((layout) => ({
            value: layout,
            label: t(`admin.import.mapping.layouts.${layout}`),
          }))}
          value={mapping.time.layout}
          onChange={(value) => value && setTime({ layout: value as DelimitedMapping['time']['layout'] })}
          allowDeselect={false}
        />
        {wide ? null : (
          <>
            <Select
              label={t('admin.import.mapping.stamp')}
              data={[
                { value: 'start', label: t('admin.import.mapping.stampStart') },
                { value: 'end', label: t('admin.import.mapping.stampEnd') },
              ]}
              value={mapping.time.stamp}
              onChange={(value) => value && setTime({ stamp: value as DelimitedMapping['time']['stamp'] })}
              allowDeselect={false}
              disabled={mapping.time.endColumn !== undefined}
            />
            <Switch
              label={t('admin.import.mapping.endInclusive')}
              checked={mapping.time.endInclusiveMinute}
              onChange={(event) => setTime({ endInclusiveMinute: event.currentTarget.checked })}
              mt="lg"
            />
          </>
        )}
        <Select
          label={t('admin.import.mapping.timeZone')}
          placeholder={t('admin.import.mapping.timeZoneOfMeter')}
          data={zones}
          value={mapping.timeZone ?? null}
          onChange={(value) => set({ timeZone: value ?? undefined })}
          searchable
          clearable
          limit={50}
        />
        {wide ? null : (
          <NumberInput
            label={t('admin.import.mapping.intervalMinutes')}
            placeholder={t('admin.import.mapping.intervalOfMeter')}
            min={1}
            max={44_640}
            value={mapping.intervalMinutes ?? ''}
            onChange={(value) => set({ intervalMinutes: typeof value === 'number' ? value : undefined })}
          />
        )}
        <TextInput
          label={wide ? t('admin.import.mapping.firstIntervalColumn') : t('admin.import.mapping.valueColumn')}
          value={shown(mapping.value.column)}
          onChange={(event) => setValue({ column: columnOf(event.currentTarget.value) })}
        />
        <Select
          label={t('admin.import.mapping.unit')}
          data={valueUnits.map((unit) => ({ value: unit, label: t(`admin.import.mapping.units.${unit}`) }))}
          value={mapping.value.unit}
          onChange={(value) => value && setValue({ unit: value as DelimitedMapping['value']['unit'] })}
          allowDeselect={false}
        />
        {wide ? null : (
          <Select
            label={t('admin.import.mapping.kind')}
            data={[
              { value: 'interval', label: t('admin.import.mapping.kindInterval') },
              { value: 'register', label: t('admin.import.mapping.kindRegister') },
            ]}
            value={mapping.value.kind}
            onChange={(value) => value && setValue({ kind: value as DelimitedMapping['value']['kind'] })}
            allowDeselect={false}
          />
        )}
        <TextInput
          label={t('admin.import.mapping.missingValues')}
          description={t('admin.import.mapping.wordsHint')}
          value={mapping.missingValues.join(', ')}
          onChange={(event) => set({ missingValues: wordsOf(event.currentTarget.value) })}
        />
      </SimpleGrid>
      <Group mt="md" align="flex-end" gap="sm" wrap="wrap">
        <SegmentedControl
          aria-label={t('admin.import.mapping.meter')}
          value={meterIsColumn ? 'column' : 'fixed'}
          onChange={(value) => set({ meter: value === 'column' ? { column: 0 } : { fixed: '' } })}
          data={[
            { value: 'fixed', label: t('admin.import.mapping.meterFixed') },
            { value: 'column', label: t('admin.import.mapping.meterColumn') },
          ]}
        />
        <TextInput
          label={
            meterIsColumn ? t('admin.import.mapping.meterColumnName') : t('admin.devices.fields.meterNumber')
          }
          value={'column' in mapping.meter ? shown(mapping.meter.column) : mapping.meter.fixed}
          onChange={(event) => {
            const text = event.currentTarget.value;
            set({ meter: meterIsColumn ? { column: columnOf(text) } : { fixed: text } });
          }}
          w={240}
        />
        <SegmentedControl
          aria-label={t('admin.import.preview.channel')}
          value={channelIsColumn ? 'column' : 'fixed' in mapping.channel ? mapping.channel.fixed : 'import'}
          onChange={(value) =>
            set({
              channel:
                value === 'column'
                  ? { column: 0, import: ['Import'], export: ['Export'] }
                  : { fixed: value === 'export' ? 'export' : 'import' },
            })
          }
          data={[
            { value: 'import', label: t('admin.import.preview.channels.import') },
            { value: 'export', label: t('admin.import.preview.channels.export') },
            { value: 'column', label: t('admin.import.mapping.channelColumn') },
          ]}
        />
        {'column' in mapping.channel ? (
          <>
            <TextInput
              label={t('admin.import.mapping.channelColumnName')}
              value={shown(mapping.channel.column)}
              onChange={(event) =>
                'column' in mapping.channel &&
                set({ channel: { ...mapping.channel, column: columnOf(event.currentTarget.value) } })
              }
              w={200}
            />
            <TextInput
              label={t('admin.import.mapping.exportWords')}
              value={mapping.channel.export.join(', ')}
              onChange={(event) =>
                'column' in mapping.channel &&
                set({ channel: { ...mapping.channel, export: wordsOf(event.currentTarget.value) } })
              }
              w={200}
            />
          </>
        ) : null}
      </Group>
    </Fieldset>
  );
}
