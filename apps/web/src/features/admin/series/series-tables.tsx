import { Table, Text } from '@mantine/core';
import type { CarbonSeries, PriceSeries } from '@cm/contracts/market-series.ts';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatZonedDateTime } from '@/lib/format.ts';
import { AdminListPanel, AdminTable } from '../admin-ui.tsx';
import type { Failure } from '@/lib/http-client.ts';
import classes from '../admin.module.css';

type Coverage = PriceSeries['coverage'];

/** First and last interval held (on the series' clock), how many, and how many are missing between them. */
function CoverageCells({ coverage, timeZone }: { coverage: Coverage; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const when = (instant: string | null) =>
    instant ? formatZonedDateTime(instant, i18n.language, timeZone) : t('admin.series.none');
  return (
    <>
      <Table.Td className={classes.nowrap}>{when(coverage.first)}</Table.Td>
      <Table.Td className={classes.nowrap}>{when(coverage.last)}</Table.Td>
      <Table.Td>{formatNumber(coverage.count, i18n.language)}</Table.Td>
      <Table.Td>
        {coverage.missing > 0 ? (
          <Text size="sm" c="red.8" fw={600}>
            {formatNumber(coverage.missing, i18n.language)}
          </Text>
        ) : (
          formatNumber(0, i18n.language)
        )}
      </Table.Td>
    </>
  );
}

function coverageHeaders(t: (key: string) => string): string[] {
  return [
    t('admin.series.first'),
    t('admin.series.last'),
    t('admin.series.count'),
    t('admin.series.missing'),
  ];
}

/** The price series: unit and currency, market zone, interval, and what they hold. */
export function PriceSeriesTable({
  series,
  isBusy,
  failure,
}: {
  series: readonly PriceSeries[];
  isBusy: boolean;
  failure: Failure | null;
}) {
  const { t } = useTranslation();
  return (
    <AdminListPanel id="cm-price-series-title" title={t('admin.series.priceList')} failure={failure}>
      <AdminTable
        headers={[
          t('admin.series.fields.name'),
          t('admin.series.price'),
          t('admin.series.fields.zone'),
          t('admin.series.fields.interval'),
          ...coverageHeaders(t),
        ]}
        isBusy={isBusy}
        isEmpty={series.length === 0}
        emptyText={t('admin.series.emptyPrice')}
        minWidth={900}
      >
        {series.map((one) => (
          <Table.Tr key={one.id} data-testid={`price-series-${one.name}`}>
            <Table.Td>
              <Text size="sm" fw={600}>
                {one.name}
              </Text>
            </Table.Td>
            <Table.Td className={classes.nowrap}>
              {t('admin.series.perUnit', { currency: one.currency, unit: one.unit })}
            </Table.Td>
            <Table.Td>{one.zone}</Table.Td>
            <Table.Td className={classes.nowrap}>
              {t('admin.series.minutes', { minutes: one.intervalMinutes })}
            </Table.Td>
            <CoverageCells coverage={one.coverage} timeZone={one.timeZone} />
          </Table.Tr>
        ))}
      </AdminTable>
    </AdminListPanel>
  );
}

/** The carbon series: grid region, interval, and what they hold. */
export function CarbonSeriesTable({
  series,
  isBusy,
  failure,
}: {
  series: readonly CarbonSeries[];
  isBusy: boolean;
  failure: Failure | null;
}) {
  const { t } = useTranslation();
  return (
    <AdminListPanel id="cm-carbon-series-title" title={t('admin.series.carbonList')} failure={failure}>
      <AdminTable
        headers={[
          t('admin.series.fields.name'),
          t('admin.series.fields.region'),
          t('admin.series.fields.interval'),
          ...coverageHeaders(t),
        ]}
        isBusy={isBusy}
        isEmpty={series.length === 0}
        emptyText={t('admin.series.emptyCarbon')}
        minWidth={820}
      >
        {series.map((one) => (
          <Table.Tr key={one.id} data-testid={`carbon-series-${one.name}`}>
            <Table.Td>
              <Text size="sm" fw={600}>
                {one.name}
              </Text>
            </Table.Td>
            <Table.Td>{one.region}</Table.Td>
            <Table.Td className={classes.nowrap}>
              {t('admin.series.minutes', { minutes: one.intervalMinutes })}
            </Table.Td>
            <CoverageCells coverage={one.coverage} timeZone={one.timeZone} />
          </Table.Tr>
        ))}
      </AdminTable>
    </AdminListPanel>
  );
}
