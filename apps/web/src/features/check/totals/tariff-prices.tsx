import { Stack, Text, Title } from '@mantine/core';
import type { Tariff } from '@cm/contracts/tariffs.ts';
import { useTranslation } from 'react-i18next';
import { memo } from 'react';
import { TariffDemandLines, TariffWindowLines, tariffPriceText } from '@/components/tariff-windows.tsx';
import { formatNumber } from '@/lib/format.ts';
import { useGetTariffsQuery } from '../api.ts';
import type { DateRange } from '../model/date-range.ts';
import { formatDateRange } from '../model/local-format.ts';
import { SectionPanel } from '../ui/section-panel.tsx';

/** The versions that priced some day of the range, each with the days it priced (oldest first). */
export function versionsInRange(
  items: readonly Tariff[],
  range: DateRange,
): { tariff: Tariff; from: string; to: string }[] {
  const sorted = [...items].sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom));
  return sorted.flatMap((tariff, i) => {
    const next = sorted[i + 1]?.effectiveFrom;
    const lastDay = next ? dayBefore(next) : range.to;
    const from = tariff.effectiveFrom > range.from ? tariff.effectiveFrom : range.from;
    const to = lastDay < range.to ? lastDay : range.to;
    return from <= to ? [{ tariff, from, to }] : [];
  });
}

function dayBefore(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - 1);
  return day.toISOString().slice(0, 10);
}

/**
 * The prices the bill above used (issue 34.13): each tariff version in force over the range, with
 * its energy price, time-of-use windows, standing charge, tax and feed-in price.
 */
export const TariffPrices = memo(function TariffPrices({
  locationName,
  range,
}: {
  locationName: string;
  range: DateRange;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const { data } = useGetTariffsQuery(locationName);
  const versions = data ? versionsInRange(data.items, range) : [];
  if (versions.length === 0) return null;
  return (
    <SectionPanel labelledBy="cm-prices-title">
      <Stack gap="sm" data-testid="tariff-prices">
        <Title order={2} size="h4" id="cm-prices-title">
          {t('check.prices.title')}
        </Title>
        {versions.map(({ tariff, from, to }) => {
          const price = (text: string) => tariffPriceText(text, tariff.currency, locale);
          const percent = (text: string) =>
            formatNumber(Number(text) / 100, locale, { style: 'percent', maximumFractionDigits: 4 });
          return (
            <div key={tariff.id} data-testid="tariff-version">
              {versions.length > 1 ? (
                <Text size="sm" fw={600}>
                  {formatDateRange(from, to, locale)}
                </Text>
              ) : null}
              <Text size="sm">
                {tariff.importSeries
                  ? // A dynamic tariff: the version's energy price is not used for import.
                    t('check.prices.energyDynamic', {
                      margin: price(tariff.importSeries.margin),
                      percent: percent(tariff.importSeries.taxPercent),
                    })
                  : t(tariff.windows.length > 0 ? 'check.prices.energyOutside' : 'check.prices.energy', {
                      price: price(tariff.energyPrice),
                    })}
              </Text>
              <Text size="sm" component="div">
                <TariffWindowLines windows={tariff.windows} currency={tariff.currency} />
                <TariffDemandLines demand={tariff.demand} currency={tariff.currency} />
              </Text>
              <Text size="sm" c="dimmed">
                {[
                  t('check.prices.standing', { price: price(tariff.standingChargePerDay) }),
                  t('check.prices.tax', { percent: percent(tariff.taxPercent) }),
                  // Export paid from a series replaces the feed-in price (docs/dynamic-prices.md).
                  tariff.exportSeries
                    ? t('check.prices.feedInDynamic', {
                        margin: price(tariff.exportSeries.margin),
                        percent: percent(tariff.exportSeries.taxPercent),
                      })
                    : tariff.feedInPrice === null
                      ? null
                      : t('check.prices.feedIn', { price: price(tariff.feedInPrice) }),
                ]
                  .filter((part) => part !== null)
                  .join(' · ')}
              </Text>
            </div>
          );
        })}
      </Stack>
    </SectionPanel>
  );
});
