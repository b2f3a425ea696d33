import { Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import type { CarbonSeries } from '@cm/contracts/market-series.ts';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { toFailure, type Failure } from '@/lib/http-client.ts';
import { AdminPanel, FailureAlert } from '../admin-ui.tsx';
import { useLocationOptions } from '../use-location-options.ts';
import { useGetLocationCarbonQuery, useSetLocationCarbonMutation } from './series-api.ts';

const NO_SERIES = 'none';

/** Gives a location the carbon series of its grid region (or none): its readings are weighed by it. */
export function LocationCarbonPanel({ carbon }: { carbon: readonly CarbonSeries[] }) {
  const { t } = useTranslation();
  const locations = useLocationOptions();
  const [locationId, setLocationId] = useState<string | null>(null);
  const current = useGetLocationCarbonQuery(Number(locationId), { skip: locationId === null });
  // The person's pick, over the location's own series until they pick (null: not yet).
  const [picked, setPicked] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [setLocationCarbon, setState] = useSetLocationCarbonMutation();

  const stored = current.data === undefined || current.data === null ? NO_SERIES : String(current.data);
  const choice = picked ?? stored;

  function handleLocation(next: string | null) {
    setLocationId(next);
    setPicked(null);
    setFailure(null);
  }

  async function handleSave() {
    if (locationId === null) return;
    setFailure(null);
    try {
      const seriesId = choice === NO_SERIES ? null : Number(choice);
      await setLocationCarbon({ locationId: Number(locationId), seriesId }).unwrap();
      const location = locations.options.find((option) => option.value === locationId)?.label ?? '';
      toast.success(t('admin.series.locationSaved', { location }));
    } catch (error) {
      setFailure(toFailure(error));
    }
  }

  return (
    <AdminPanel labelledBy="cm-location-carbon-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="cm-location-carbon-title">
          {t('admin.series.locationTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('admin.series.locationIntro')}
        </Text>
        <Group align="flex-end" gap="sm">
          <Select
            label={t('admin.series.location')}
            value={locationId}
            onChange={handleLocation}
            data={locations.options}
            searchable
            w={280}
            nothingFoundMessage={t('admin.series.noLocation')}
          />
          <Select
            label={t('admin.series.carbonOfLocation')}
            value={choice}
            onChange={(next) => setPicked(next ?? NO_SERIES)}
            data={[
              { value: NO_SERIES, label: t('admin.series.noCarbon') },
              ...carbon.map((series) => ({
                value: String(series.id),
                label: `${series.name} (${series.region})`,
              })),
            ]}
            disabled={locationId === null || current.isFetching}
            allowDeselect={false}
            w={280}
          />
          <Button
            onClick={() => void handleSave()}
            disabled={locationId === null}
            loading={setState.isLoading}
          >
            {t('admin.series.saveLocation')}
          </Button>
        </Group>
        <FailureAlert failure={failure ?? toFailure(current.error)} />
      </Stack>
    </AdminPanel>
  );
}
