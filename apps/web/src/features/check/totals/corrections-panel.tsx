import { Button, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import type { Channel } from '@cm/contracts/check-limits.ts';
import type { LocationReadings, MeterReadings } from '@cm/contracts/check.ts';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEnergy } from '@/lib/format.ts';
import { useGetReadingCorrectionsQuery } from '../api.ts';
import { formatIsoInZone } from '../model/local-format.ts';
import { formatRegister } from './totals.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import { correctedChannels } from './corrected.ts';
import classes from '../check.module.css';

function ChannelCorrections({
  meter,
  channel,
  readings,
}: {
  meter: MeterReadings;
  channel: Channel;
  readings: LocationReadings;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const tz = readings.location.timeZone;
  const answer = useGetReadingCorrectionsQuery({
    meterNumber: meter.meter.meterNumber,
    From: readings.from,
    To: readings.to,
    channel,
  });
  if (answer.isLoading) return <Skeleton height={60} />;
  if (answer.isError || !answer.data)
    return (
      <Text size="sm" c="dimmed" role="alert">
        {t('check.corrections.failed')}
      </Text>
    );
  const { corrections, total } = answer.data;
  const value = (kind: 'register' | 'interval', v: number) =>
    kind === 'register' ? formatRegister(v, locale) : formatEnergy(v, locale);
  return (
    <Stack gap={4}>
      <div className={classes.tableScroll} data-testid={`corrections-${channel}`}>
        <Table striped verticalSpacing={4} miw={620} captionSide="top">
          <Table.Caption>{t(`check.corrections.channel.${channel}`)}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('check.corrections.reading')}</Table.Th>
              <Table.Th className={classes.num}>{t('check.corrections.before')}</Table.Th>
              <Table.Th className={classes.num}>{t('check.corrections.after')}</Table.Th>
              <Table.Th>{t('check.corrections.when')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {corrections.map((correction) => (
              <Table.Tr key={`${correction.at}-${correction.correctedAt}`}>
                <Table.Td className={classes.nowrap}>
                  {formatIsoInZone(correction.at, locale, tz)}
                  {correction.end ? ` → ${formatIsoInZone(correction.end, locale, tz)}` : ''}
                </Table.Td>
                {[correction.before, correction.after].map((shown, side) => (
                  <Table.Td key={side} className={classes.num}>
                    {value(correction.kind, shown.value)}{' '}
                    <Text span size="xs" c="dimmed">
                      {t(`check.corrections.quality.${shown.quality}`)}
                    </Text>
                  </Table.Td>
                ))}
                <Table.Td>
                  {t(`check.corrections.source.${correction.source}`, {
                    at: formatIsoInZone(correction.correctedAt, locale, tz),
                  })}
                  {correction.detail ? (
                    <Text size="xs" c="dimmed">
                      {correction.detail}
                    </Text>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      {total > corrections.length ? (
        <Text size="xs" c="dimmed">
          {t('check.corrections.more', { count: total, shown: corrections.length })}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * Values replaced after they were first shown ("what did you show me last month?"): the rows mark
 * them, and this panel lists what was shown before, what is shown now, and when and by what it
 * changed. The history loads when asked for.
 */
export const CorrectionsPanel = memo(function CorrectionsPanel({ readings }: { readings: LocationReadings }) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const [meter] = readings.meters;
  if (!meter || readings.meters.length !== 1) return null;
  const channels = correctedChannels(meter);
  if (channels.length === 0) return null;
  const count = channels.reduce((sum, entry) => sum + entry.count, 0);
  return (
    <SectionPanel labelledBy="cm-corrections-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" id="cm-corrections-title">
            {t('check.corrections.title')}
          </Title>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconHistory size={14} aria-hidden />}
            onClick={() => setOpen((open) => !open)}
            aria-expanded={isOpen}
            className={classes.noPrint}
          >
            {t(isOpen ? 'check.corrections.hide' : 'check.corrections.show')}
          </Button>
        </Group>
        <Text size="sm">{t('check.corrections.intro', { count })}</Text>
        {isOpen
          ? channels.map(({ channel }) => (
              <ChannelCorrections key={channel} meter={meter} channel={channel} readings={readings} />
            ))
          : null}
      </Stack>
    </SectionPanel>
  );
});
