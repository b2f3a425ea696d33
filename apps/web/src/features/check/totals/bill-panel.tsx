import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { memo } from 'react';
import { partsAsShown, type LocationBill } from '../model/bill.ts';
import { formatEnergy, formatMoney, formatNumber } from '@/lib/format.ts';
import { formatLocal } from '../model/local-format.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import { Stat } from '../ui/stat.tsx';
import classes from '../check.module.css';

/**
 * What the range costs at the location's tariff: the total with its parts (energy, standing
 * charges, tax, export credit), how much rests on estimated values, and for a calendar period
 * still going the projection to its end, saying to which day and how it is projected.
 */
export const BillPanel = memo(function BillPanel({
  bill,
  basis,
  count,
  partial,
  timeZone,
}: LocationBill & { timeZone: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const money = (amount: number) => formatMoney(amount, bill.currency, locale);
  // The parts as shown add up to the total as shown (each rounded to the currency's unit).
  const digits =
    new Intl.NumberFormat(locale, { style: 'currency', currency: bill.currency }).resolvedOptions()
      .maximumFractionDigits ?? 2;
  const [energy = 0, standing = 0, demandCharge = 0, capacityCharge = 0, tax = 0, credit = 0] = partsAsShown(
    [bill.energy, bill.standingCharge, bill.demandCharge, bill.capacityCharge, bill.tax, -bill.feedIn],
    bill.total,
    digits,
  );
  const { projection, demand } = bill;
  const hasDemand = bill.demandCharge > 0 || demand?.chargedKw != null;
  const hasCapacity = bill.capacityCharge > 0 || demand?.capacityKw != null;
  const columns = 4 + Number(bill.feedIn > 0) + Number(hasDemand) + Number(hasCapacity);
  const kW = (value: number) => formatNumber(value, locale, { maximumFractionDigits: 3 });
  const atLeast = demand?.isAtLeast ? '≥ ' : '';
  return (
    <SectionPanel labelledBy="cm-bill-title">
      <Stack gap="md" data-testid="bill">
        <div>
          <Title order={2} size="h4" id="cm-bill-title">
            {t('check.bill.title')}
          </Title>
          {basis === 'mainSupply' ? (
            <Text size="xs" c="dimmed">
              {t('check.bill.mainSupply', { count })}
            </Text>
          ) : count > 1 ? (
            <Text size="xs" c="dimmed">
              {t('check.bill.meters', { count })}
            </Text>
          ) : null}
          {partial ? (
            // As the energy total: only the meters with data are billed here (issue 34).
            <Text size="xs" c="dimmed" data-testid="bill-partial">
              {t('check.all.atLeast', { amount: money(bill.total) })}{' '}
              {t('check.all.partial', { count: partial.known, of: count })}
            </Text>
          ) : null}
        </div>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: columns }} spacing="md">
          <Stat
            testId="bill-total"
            label={t('check.bill.total')}
            value={money(bill.total)}
            hint={bill.tax > 0 ? t('check.bill.totalHint', { tax: money(tax) }) : null}
          />
          <Stat
            testId="bill-energy"
            label={t('check.bill.energy')}
            value={money(energy)}
            hint={bill.estimated > 0 ? t('check.bill.estimated', { amount: money(bill.estimated) }) : null}
          />
          <Stat
            testId="bill-standing"
            label={t('check.bill.standing')}
            value={money(standing)}
            hint={t('check.bill.standingDays', {
              count: bill.standingDays,
              days: formatNumber(bill.standingDays, locale, { maximumFractionDigits: 2 }),
            })}
          />
          {hasDemand ? (
            <Stat
              testId="bill-demand"
              label={t('check.bill.demandCharge')}
              value={money(demandCharge)}
              hint={
                demand?.chargedKw == null
                  ? null
                  : t('check.bill.demandHint', { kW: `${atLeast}${kW(demand.chargedKw)}` })
              }
            />
          ) : null}
          {hasCapacity ? (
            <Stat
              testId="bill-capacity"
              label={t('check.bill.capacityCharge')}
              value={money(capacityCharge)}
              hint={
                demand?.capacityKw == null
                  ? null
                  : t('check.bill.capacityHint', { kW: `${atLeast}${kW(demand.capacityKw)}` })
              }
            />
          ) : null}
          <Stat testId="bill-tax" label={t('check.bill.tax')} value={money(tax)} />
          {bill.feedIn > 0 ? (
            <Stat testId="bill-feed-in" label={t('check.bill.feedIn')} value={`−${money(-credit)}`} />
          ) : null}
        </SimpleGrid>
        {demand && hasDemand ? (
          <Text size="sm" c="dimmed" data-testid="bill-demand-basis">
            {[
              demand.peak
                ? t(demand.peak.isAtLeast ? 'check.bill.peakAtLeast' : 'check.bill.peak', {
                    kW: kW(demand.peak.kW),
                    minutes: demand.intervalMinutes,
                    at: formatLocal(Date.parse(demand.peak.from), locale, timeZone),
                  })
                : t('check.bill.noPeak'),
              demand.ratchetKw === null ? null : t('check.bill.ratchet', { kW: kW(demand.ratchetKw) }),
            ]
              .filter((part) => part)
              .join(' ')}
          </Text>
        ) : null}
        {projection ? (
          <div className={classes.agreement} data-testid="bill-projection">
            <Text size="sm" fw={600}>
              {t('check.bill.projectionTo', {
                total: money(projection.total),
                // `to` is the end instant: the period's last day is the day before it.
                end: formatLocal(Date.parse(projection.to) - 1, locale, timeZone, 'date'),
              })}
            </Text>
            <Text size="sm" c="dimmed">
              {t('check.bill.projectionHow', {
                count: projection.averagedDays,
                days: formatNumber(projection.averagedDays, locale, { maximumFractionDigits: 1 }),
              })}
            </Text>
            {projection.peakMayRise ? (
              <Text size="sm" c="dimmed" data-testid="bill-peak-may-rise">
                {t('check.bill.peakMayRise')}
              </Text>
            ) : null}
          </div>
        ) : null}
        {bill.unpricedConsumption > 0 ? (
          <Text size="sm" c="dimmed" data-testid="bill-unpriced">
            {t('check.bill.unpriced', { energy: formatEnergy(bill.unpricedConsumption, locale) })}
          </Text>
        ) : null}
      </Stack>
    </SectionPanel>
  );
});
