import { Anchor, Table, Title } from '@mantine/core';
import type { LocationReadings } from '@cm/contracts/check.ts';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEnergy, formatNumber } from '@/lib/format.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import { meterOptionText } from '../meter/meter-name.ts';

interface MetersSummaryProps {
  readings: LocationReadings;
  onPickMeter: (meterInd: number) => void;
}

/** A location's meters side by side: totals per meter indicator, each a link to its own view. */
export const MetersSummary = memo(function MetersSummary({ readings, onPickMeter }: MetersSummaryProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const energy = (value: number | null) => (value === null ? '—' : formatEnergy(value, locale));
  return (
    <SectionPanel labelledBy="cm-meters-title">
      <Title order={2} size="h4" id="cm-meters-title" mb="sm">
        {t('check.all.title', { location: readings.location.publicName })}
      </Title>
      <Table.ScrollContainer minWidth={560}>
        <Table striped highlightOnHover data-testid="meters-summary">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('check.all.meter')}</Table.Th>
              <Table.Th scope="col" ta="end">
                {t('check.totals.consumption')}
              </Table.Th>
              <Table.Th scope="col" ta="end">
                {t('check.totals.averagePerDay')}
              </Table.Th>
              <Table.Th scope="col" ta="end">
                {t('check.totals.missing')}
              </Table.Th>
              <Table.Th scope="col">{t('check.all.check')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {readings.meters.map(({ meterInd, meter, totals }) => (
              <Table.Tr key={meterInd}>
                <Table.Td>
                  <Anchor component="button" type="button" onClick={() => onPickMeter(meterInd)}>
                    {meterOptionText(t, { meterInd, meterNumber: meter.meterNumber, label: meter.label })}
                  </Anchor>
                </Table.Td>
                <Table.Td ta="end">{energy(totals.consumption)}</Table.Td>
                <Table.Td ta="end">{energy(totals.averagePerDay)}</Table.Td>
                <Table.Td ta="end">{formatNumber(totals.missingIntervals, locale)}</Table.Td>
                <Table.Td>
                  {totals.registerDifference === null
                    ? '—'
                    : totals.agrees
                      ? t('check.totals.agreesShort')
                      : t('check.totals.differsShort')}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </SectionPanel>
  );
});
