import { Alert, Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconCheck, IconPlus } from '@tabler/icons-react';
import type { ImportSource } from '@cm/contracts/import-jobs.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toFailure, type Failure } from '@/lib/http-client.ts';
import { AdminPanel, FailureAlert } from '../admin-ui.tsx';
import classes from '../admin.module.css';
import { useLocationOptions } from '../use-location-options.ts';
import { DetailTable } from './detail-table.tsx';
import { useCreateImportMetersMutation } from './imports-api.ts';

/**
 * Preview first, then meters: the meters the file names that are not on the site, each given a
 * location here, are created in one confirmed step (installed from their first reading's day,
 * with the file's interval); the preview then reads them as known.
 */
export function NewMetersPanel({
  jobId,
  source,
  meterNumbers,
  onCreated,
}: {
  jobId: string;
  source: ImportSource;
  meterNumbers: string[];
  onCreated: () => void;
}) {
  const { t } = useTranslation();
  const locations = useLocationOptions();
  const [chosen, setChosen] = useState<Record<string, string | null>>({});
  const [isConfirming, setIsConfirming] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [create, state] = useCreateImportMetersMutation();
  const meters = meterNumbers.flatMap((meterNumber) => {
    const locationId = chosen[meterNumber];
    return locationId ? [{ meterNumber, locationId: Number(locationId) }] : [];
  });

  async function confirm() {
    setFailure(null);
    try {
      await create({ id: jobId, body: { ...source, meters } }).unwrap();
      setIsConfirming(false);
      setChosen({});
      onCreated();
    } catch (error) {
      setFailure(toFailure(error));
    }
  }

  return (
    <AdminPanel labelledBy="cm-new-meters-title" testId="import-new-meters">
      <Stack gap="sm">
        <Title order={2} size="h4" id="cm-new-meters-title">
          {t('admin.import.newMeters.title')}
        </Title>
        <Text size="sm">{t('admin.import.newMeters.intro')}</Text>
        <DetailTable
          caption={t('admin.import.newMeters.caption')}
          minWidth={480}
          striped={false}
          headers={[t('admin.devices.fields.meterNumber'), t('admin.import.preview.location')]}
        >
          {meterNumbers.map((meterNumber) => (
            <Table.Tr key={meterNumber}>
              <Table.Td className={classes.mono}>{meterNumber}</Table.Td>
              <Table.Td>
                <Select
                  aria-label={t('admin.import.newMeters.locationFor', { meter: meterNumber })}
                  placeholder={t('admin.import.newMeters.notCreated')}
                  data={locations.options}
                  value={chosen[meterNumber] ?? null}
                  onChange={(value) => {
                    setIsConfirming(false);
                    setChosen((before) => ({ ...before, [meterNumber]: value }));
                  }}
                  searchable
                  clearable
                  w={300}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </DetailTable>
        {isConfirming ? (
          <Alert color="yellow" variant="light" role="alert">
            <Stack gap="xs">
              <Text size="sm">{t('admin.import.newMeters.confirmText', { count: meters.length })}</Text>
              <Group gap="sm">
                <Button
                  leftSection={<IconCheck size={16} aria-hidden />}
                  onClick={() => void confirm()}
                  loading={state.isLoading}
                >
                  {t('admin.import.newMeters.confirm', { count: meters.length })}
                </Button>
                <Button variant="default" onClick={() => setIsConfirming(false)}>
                  {t('admin.actions.cancel')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : (
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} aria-hidden />}
              disabled={meters.length === 0}
              onClick={() => setIsConfirming(true)}
            >
              {t('admin.import.newMeters.create', { count: meters.length })}
            </Button>
          </Group>
        )}
        {failure ? <FailureAlert failure={failure} /> : null}
      </Stack>
    </AdminPanel>
  );
}
