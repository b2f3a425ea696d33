import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toFailure } from '@/lib/http-client.ts';
import { AdminPageHeader } from '../admin-ui.tsx';
import { LocationCarbonPanel } from './location-carbon-panel.tsx';
import { useListCarbonSeriesQuery, useListPriceSeriesQuery } from './series-api.ts';
import { SeriesImportForm } from './series-import-form.tsx';
import { CarbonSeriesTable, PriceSeriesTable } from './series-tables.tsx';
import classes from '../admin.module.css';

/**
 * Price and carbon series (issue 36): import a file of prices or intensities, see what each
 * series holds and where it has holes, and give locations their grid region's carbon series.
 */
export function SeriesPage() {
  const { t } = useTranslation();
  const prices = useListPriceSeriesQuery();
  const carbon = useListCarbonSeriesQuery();
  return (
    <Stack gap="md" className={classes.page}>
      <AdminPageHeader title={t('admin.series.title')} intro={t('admin.series.intro')} />
      <SeriesImportForm prices={prices.data ?? []} carbon={carbon.data ?? []} />
      <PriceSeriesTable
        series={prices.data ?? []}
        isBusy={prices.isFetching}
        failure={toFailure(prices.error)}
      />
      <CarbonSeriesTable
        series={carbon.data ?? []}
        isBusy={carbon.isFetching}
        failure={toFailure(carbon.error)}
      />
      <LocationCarbonPanel carbon={carbon.data ?? []} />
    </Stack>
  );
}
