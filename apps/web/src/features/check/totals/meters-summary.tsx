import { Anchor, Group, Text, Title } from '@mantine/core';
import type { LocationReadings } from '@cm/contracts/check.ts';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEnergy, formatMoney, formatNumber, formatPercent } from '@/lib/format.ts';
import { billCurrency } from '../model/bill.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import { ToneBadge } from '@/components/tone-badge.tsx';
import { meterOptionText } from '../meter/meter-name.ts';
import {
  locationNet,
  locationTotal,
  meterNet,
  type LocationTotal,
  type NetEnergy,
} from '../model/location-total.ts';
import { NoExportChannel } from '../ui/no-export-channel.tsx';
import { ComparisonTiles, type ComparisonTotal } from './comparison-tiles.tsx';
import classes from '../check.module.css';

/** Energies as the summary writes them, in `locale`: a dash where unknown. */
function energyIn(locale: string) {
  return (value: number | null) => (value === null ? '—' : formatEnergy(value, locale));
}

/** A meter's export and net cells; a meter without an export channel says so, its net is its import. */
function NetCells({ of, energy }: { of: NetEnergy; energy: (value: number | null) => string }) {
  const { exported, net } = meterNet(of);
  return (
    <>
      <td className={classes.num}>{exported === 'none' ? <NoExportChannel /> : energy(exported)}</td>
      <td className={classes.num}>{energy(net)}</td>
    </>
  );
}

/** A name that may wrap at its spaces only, never inside "EM-10007" at its hyphen. */
function BreakAtSpaces({ text }: { text: string }) {
  return text.split(/(\s+)/).map((part, i) =>
    part.trim() === '' ? (
      part
    ) : (
      <span key={i} className={classes.nowrap}>
        {part}
      </span>
    ),
  );
}

interface MetersSummaryProps {
  readings: LocationReadings;
  comparisons: ComparisonTotal[];
  onPickMeter: (meterInd: number) => void;
}

/**
 * A location's meters side by side (issue 17.5): the location's total with its comparisons, each
 * meter's share of it, and where a meter is the main supply, the sub-meters against it with the
 * rest nobody meters. Each meter links to its own view.
 */
export const MetersSummary = memo(function MetersSummary({
  readings,
  comparisons,
  onPickMeter,
}: MetersSummaryProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const total = useMemo(() => locationTotal(readings.meters), [readings.meters]);
  // With a meter that exports: each meter's export and net, and the location's (issue 34.12).
  const net = useMemo(() => locationNet(readings.meters), [readings.meters]);
  const energy = energyIn(locale);
  // Some meters without data in the range: at least what the others used (issue 34).
  const { atLeast } = total;
  const totalText = atLeast
    ? t('check.all.atLeast', { amount: formatEnergy(atLeast.consumption, locale) })
    : energy(total.consumption);
  const timeZone = readings.location.timeZone;

  return (
    <SectionPanel labelledBy="cm-meters-title">
      <Title order={2} size="h4" id="cm-meters-title" mb="xs">
        {t('check.all.title', { location: readings.location.publicName })}
      </Title>
      <Group gap="xs" align="baseline" mb={4}>
        <Text fw={600}>{t('check.all.locationTotal')}</Text>
        <Text fw={700} fz="lg" className={classes.num} data-testid="location-total">
          {totalText}
        </Text>
      </Group>
      {net ? (
        <Text size="sm" data-testid="location-net-line">
          {t('check.all.locationNet', { exported: energy(net.exported), net: energy(net.net) })}
        </Text>
      ) : null}
      {atLeast ? (
        <Text
          size="sm"
          c="dimmed"
          mb={total.basis === 'mainSupply' ? undefined : 'sm'}
          data-testid="location-total-partial"
        >
          {t('check.all.partial', { count: atLeast.known, of: atLeast.of })}
        </Text>
      ) : null}
      {/* A partial sum already says how many meters it adds: "the sum of its 4 meters" after
          "from 2 of 4 meters" read as a contradiction (issue 34). */}
      {total.basis === 'mainSupply' || !atLeast ? (
        <Text size="sm" c="dimmed" mb="sm" data-testid="location-total-basis">
          {total.basis === 'mainSupply'
            ? t('check.all.basisMain')
            : t('check.all.basisSum', { count: readings.meters.length })}
        </Text>
      ) : null}
      {comparisons.length > 0 ? (
        <ComparisonTiles comparisons={comparisons} own={total} timeZone={timeZone} />
      ) : null}
      <MetersTable
        readings={readings}
        total={total}
        net={net}
        totalText={totalText}
        onPickMeter={onPickMeter}
      />
    </SectionPanel>
  );
});

interface MetersTableProps {
  readings: LocationReadings;
  total: LocationTotal;
  net: ReturnType<typeof locationNet>;
  totalText: string;
  onPickMeter: (meterInd: number) => void;
}

/**
 * The meters' table under the location's total: a memo component of its own, so that a comparison
 * landing (twice per answer, each a render the store's news makes synchronous) renders the tiles
 * above it and not its rows.
 */
const MetersTable = memo(function MetersTable({
  readings,
  total,
  net,
  totalText,
  onPickMeter,
}: MetersTableProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const energy = energyIn(locale);
  const share = (value: number | null | undefined) =>
    value === null || value === undefined ? '—' : formatPercent(value, locale);
  const ofMain = (value: number | null) =>
    value === null || total.consumption === null || total.consumption === 0
      ? null
      : value / total.consumption;
  // Main supplies first: the sub-meters below read as parts of them.
  const rows = [...readings.meters].sort(
    (a, b) => Number(b.meter.mainSupply) - Number(a.meter.mainSupply) || a.meterInd - b.meterInd,
  );
  // With a tariff: each meter's bill over the range (energy, standing charges and tax).
  const currency = billCurrency(readings);
  // The columns after the share: export and net, average, missing, cost, check.
  const restColumns = (net ? 2 : 0) + (currency ? 4 : 3);

  return (
    <>
      <div
        className={classes.sideScroll}
        role="region"
        aria-labelledby="cm-meters-title"
        tabIndex={0}
        data-testid="meters-summary-scroll"
      >
        <table className={classes.table} data-testid="meters-summary">
          <thead>
            <tr>
              <th scope="col">{t('check.all.meter')}</th>
              <th scope="col" className={classes.num}>
                {t('check.totals.consumption')}
              </th>
              <th scope="col" className={classes.num}>
                {t('check.all.share')}
              </th>
              {net ? (
                <>
                  <th scope="col" className={classes.num}>
                    {t('check.totals.exported')}
                  </th>
                  <th scope="col" className={classes.num}>
                    {t('check.totals.net')}
                  </th>
                </>
              ) : null}
              <th scope="col" className={classes.num}>
                {t('check.totals.averagePerDay')}
              </th>
              <th scope="col" className={classes.num}>
                {t('check.totals.missing')}
              </th>
              {currency ? (
                <th scope="col" className={classes.num}>
                  {t('check.all.cost', { currency })}
                </th>
              ) : null}
              <th scope="col">{t('check.all.check')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ meterInd, meter, totals, bill, channel, channels }) => (
              <tr key={meterInd} data-testid={`meters-summary-${meterInd}`}>
                <td className={classes.meterCell}>
                  <Group gap={6}>
                    <Anchor component="button" type="button" ta="start" onClick={() => onPickMeter(meterInd)}>
                      <BreakAtSpaces
                        text={meterOptionText(t, {
                          meterInd,
                          meterNumber: meter.meterNumber,
                          label: meter.label,
                        })}
                      />
                    </Anchor>
                    {meter.mainSupply ? (
                      <ToneBadge tone="outline">{t('check.all.mainSupply')}</ToneBadge>
                    ) : null}
                  </Group>
                </td>
                <td className={classes.num}>{energy(totals.consumption)}</td>
                <td className={classes.num}>{share(total.shares.get(meterInd))}</td>
                {net ? <NetCells of={{ channel, channels, totals }} energy={energy} /> : null}
                <td className={classes.num}>{energy(totals.averagePerDay)}</td>
                <td className={classes.num}>{formatNumber(totals.missingIntervals, locale)}</td>
                {currency ? (
                  <td className={classes.num} data-testid="meter-cost">
                    {bill ? formatMoney(bill.total, bill.currency, locale) : '—'}
                  </td>
                ) : null}
                <td>
                  {totals.registerDifference === null
                    ? '—'
                    : totals.agrees
                      ? t('check.totals.agreesShort')
                      : t('check.totals.differsShort')}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            {total.basis === 'mainSupply' ? (
              <>
                <tr data-testid="meters-summary-sub">
                  <th scope="row">{t('check.all.subMeters')}</th>
                  <td className={classes.num}>{energy(total.subMeters)}</td>
                  <td className={classes.num}>{share(ofMain(total.subMeters))}</td>
                  <td colSpan={restColumns} />
                </tr>
                <tr data-testid="meters-summary-rest">
                  <th scope="row">
                    {t('check.all.unaccounted')}
                    <Text size="xs" c="dimmed" fw={400}>
                      {total.unaccounted !== null && total.unaccounted < 0
                        ? t('check.all.unaccountedNegative')
                        : t('check.all.unaccountedHint')}
                    </Text>
                  </th>
                  <td className={classes.num}>{energy(total.unaccounted)}</td>
                  <td className={classes.num}>{share(ofMain(total.unaccounted))}</td>
                  <td colSpan={restColumns} />
                </tr>
              </>
            ) : (
              <tr data-testid="meters-summary-total">
                <th scope="row">{t('check.all.locationTotal')}</th>
                <td className={classes.num}>{totalText}</td>
                <td className={classes.num}>{share(total.consumption === null ? null : 1)}</td>
                {net ? (
                  <>
                    <td className={classes.num} data-testid="location-exported">
                      {energy(net.exported)}
                    </td>
                    <td className={classes.num} data-testid="location-net">
                      {energy(net.net)}
                    </td>
                  </>
                ) : null}
                <td colSpan={currency ? 4 : 3} />
              </tr>
            )}
          </tfoot>
        </table>
      </div>
      <Text size="xs" c="dimmed" mt={4} className={classes.scrollHint}>
        {t('check.all.scrollHint')}
      </Text>
    </>
  );
});
