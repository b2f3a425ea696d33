import { importPresets } from '@cm/contracts/import-mapping.ts';
import type { ImportJob } from '@cm/contracts/import-jobs.ts';
import { Button, Group, Select, Switch, Textarea, TextInput } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Failure } from '@/lib/http-client.ts';
import classes from '../admin.module.css';
import { fieldFailure } from '../failure-message.ts';
import { timeZoneOptions } from '../time-zones.ts';
import { useListImportMappingsQuery } from './imports-api.ts';
import { AUTO, type ImportOptions } from './import-options.ts';
import { MappingEditor } from './mapping-editor.tsx';
import { nmiMapText } from './nmi-map.ts';

/**
 * The fields of how a file is read, as its detected format asks: a preset or mapping for a
 * delimited file, a meter number, a time zone for Check Meter CSV, an NMI map for NEM12/NEM13,
 * then strictness, corrections and a name to save the mapping under. `detectedMapping`: the
 * mapping the preview read with, offered for editing.
 */
export function OptionsFields({
  uploaded,
  options,
  detectedMapping,
  failure,
}: {
  uploaded: ImportJob;
  options: ImportOptions;
  detectedMapping: ImportOptions['values']['mapping'];
  failure: Failure | null;
}) {
  const { t } = useTranslation();
  const zones = useMemo(() => timeZoneOptions(), []);
  const mappings = useListImportMappingsQuery();
  const { values, set, source } = options;
  const { detection } = uploaded;
  const needsMeter = detection.needs.includes('meterNumber') || detection.format === 'espi';
  const isMdff = detection.format === 'nem12' || detection.format === 'nem13';
  const meterFailure = fieldFailure(failure, ['meterNumber']);
  const savedMappings = (mappings.data ?? []).flatMap((saved) => (saved.mapping ? [saved] : []));
  const savedNmiMaps = (mappings.data ?? []).flatMap((saved) =>
    saved.nmis ? [{ name: saved.name, nmis: saved.nmis }] : [],
  );

  return (
    <>
      <Group align="flex-end" gap="sm" wrap="wrap">
        {detection.format === 'delimited' ? (
          <Select
            label={t('admin.import.preset')}
            data={[
              { value: AUTO, label: t('admin.import.presetAuto') },
              ...importPresets.map((name) => ({ value: name, label: t(`admin.import.presets.${name}`) })),
              ...savedMappings.map((saved) => ({
                value: `saved:${saved.name}`,
                label: t('admin.import.saved', { name: saved.name }),
              })),
            ]}
            value={values.preset}
            onChange={(value) => {
              const next = value ?? AUTO;
              set.preset(next);
              set.mapping(savedMappings.find((item) => `saved:${item.name}` === next)?.mapping ?? null);
            }}
            allowDeselect={false}
            w={280}
          />
        ) : null}
        {needsMeter || detection.format !== 'csv' ? (
          <TextInput
            label={t('admin.devices.fields.meterNumber')}
            description={t('admin.import.meterHint')}
            value={values.meterNumber}
            onChange={(event) => set.meterNumber(event.currentTarget.value)}
            required={needsMeter}
            error={meterFailure ? t(meterFailure.key, meterFailure.values) : undefined}
            w={240}
          />
        ) : null}
        {detection.format === 'csv' ? (
          <Select
            label={t('admin.import.timeZone')}
            description={t('admin.import.timeZoneHint')}
            placeholder={t('admin.import.timeZoneNone')}
            data={zones}
            value={values.timeZone}
            onChange={set.timeZone}
            searchable
            clearable
            limit={50}
            w={300}
          />
        ) : null}
        {detectedMapping && !values.mapping ? (
          <Button
            variant="subtle"
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => set.mapping(detectedMapping)}
          >
            {t('admin.import.editMapping')}
          </Button>
        ) : null}
      </Group>
      {values.mapping ? (
        <MappingEditor mapping={values.mapping} onChange={set.mapping} zones={zones} />
      ) : null}
      {isMdff ? (
        <Group gap="md" align="flex-start" wrap="wrap">
          {savedNmiMaps.length > 0 ? (
            <Select
              label={t('admin.import.savedNmis')}
              data={savedNmiMaps.map((saved) => saved.name)}
              onChange={(name) => {
                const saved = savedNmiMaps.find((item) => item.name === name);
                if (saved) set.nmisText(nmiMapText(saved.nmis));
              }}
              w={240}
            />
          ) : null}
          <Textarea
            label={t('admin.import.nmis')}
            description={t('admin.import.nmisHint')}
            value={values.nmisText}
            onChange={(event) => set.nmisText(event.currentTarget.value)}
            autosize
            minRows={2}
            className={classes.mono}
            w={420}
          />
        </Group>
      ) : null}
      <Group gap="lg" wrap="wrap">
        <Switch
          label={t('admin.import.strict')}
          description={t('admin.import.strictHint')}
          checked={values.isStrict}
          onChange={(event) => set.isStrict(event.currentTarget.checked)}
        />
        <Switch
          label={t('admin.import.corrections')}
          description={t('admin.import.correctionsHint')}
          checked={values.corrections}
          onChange={(event) => set.corrections(event.currentTarget.checked)}
        />
      </Group>
      {values.mapping || source.nmis ? (
        <TextInput
          label={t('admin.import.saveMappingAs')}
          description={t('admin.import.saveMappingHint')}
          value={values.saveAs}
          onChange={(event) => set.saveAs(event.currentTarget.value)}
          w={320}
        />
      ) : null}
    </>
  );
}
