import { Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconBolt } from '@tabler/icons-react';
import type { AdminLocation } from '@cm/contracts/admin.ts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '@/lib/format.ts';
import { toFailure } from '@/lib/http-client.ts';
import { FailureAlert } from '../admin-ui.tsx';
import classes from '../admin.module.css';
import { useGetLocationMetersQuery } from './locations-api.ts';

/** A location's meters, current and removed, with a way to its device tree. */
export function LocationMeters({ location }: { location: AdminLocation }) {
  const { t, i18n } = useTranslation();
  const query = useGetLocationMetersQuery(location.id);
  const meters = query.data ?? [];
  return (
    <Stack gap="md">
      <FailureAlert failure={toFailure(query.error)} />
      <div className={classes.tableWrap}>
        <Table verticalSpacing="xs" aria-busy={query.isFetching}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.devices.fields.meterInd')}</Table.Th>
              <Table.Th>{t('admin.devices.fields.meterNumber')}</Table.Th>
              <Table.Th>{t('admin.devices.fields.label')}</Table.Th>
              <Table.Th>{t('admin.devices.fields.installed')}</Table.Th>
              <Table.Th>{t('admin.devices.fields.removed')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {meters.length === 0 && !query.isFetching ? (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text size="sm" c="dimmed" ta="center" py="sm">
                    {t('admin.locations.noMeters')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {meters.map((device) =>
              device.meter ? (
                <Table.Tr key={device.id}>
                  <Table.Td>{device.meter.meterInd}</Table.Td>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={`/check?meter=${encodeURIComponent(device.meter.meterNumber)}`}
                      size="sm"
                    >
                      <IconBolt size={14} aria-hidden /> {device.meter.meterNumber}
                    </Anchor>
                  </Table.Td>
                  {/* What people call it ("Apt C-101"): a number alone says little (issue 34). */}
                  <Table.Td>{device.meter.label === '' ? '—' : device.meter.label}</Table.Td>
                  <Table.Td className={classes.nowrap}>
                    {formatDate(device.meter.installedAt, i18n.language, location.timeZone)}
                  </Table.Td>
                  <Table.Td className={classes.nowrap}>
                    {device.meter.removedAt
                      ? formatDate(device.meter.removedAt, i18n.language, location.timeZone)
                      : '—'}
                  </Table.Td>
                </Table.Tr>
              ) : null,
            )}
          </Table.Tbody>
        </Table>
      </div>
      <Group>
        <Button component={Link} to={`/admin/devices?location=${location.id}`} variant="light">
          {t('admin.locations.openDevices')}
        </Button>
      </Group>
    </Stack>
  );
}
