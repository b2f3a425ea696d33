import { ActionIcon, Group, Menu, Table, Text, Tooltip } from '@mantine/core';
import { IconDots, IconExchange, IconPencil, IconSwitchHorizontal } from '@tabler/icons-react';
import type { AdminDevice } from '@cm/contracts/admin.ts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatZonedDateTime } from '@/lib/format.ts';
import classes from '../admin.module.css';
import { LastSeen, PriorityBadge, StatusBadge, TypeIcon } from './device-badges.tsx';
import type { DeviceDialog } from './device-dialog.tsx';
import { typeKeys } from './device-labels.ts';
import { deviceName } from './device-tree.ts';

interface DeviceRowProps {
  device: AdminDevice;
  /** The location on screen (null: every location, so the row names its own). */
  locationId: number | null;
  /** The device's own location's zone: its times are said there, with the offset. */
  timeZone: string;
  onDialog: (dialog: DeviceDialog) => void;
}

/** One row of the device table: the device, where it hangs, how it is doing, and its actions. */
export function DeviceRow({ device, locationId, timeZone, onDialog }: DeviceRowProps) {
  const { t, i18n } = useTranslation();
  const name = deviceName(device);
  const isCurrentMeter = device.meter !== null && device.meter.removedAt === null;
  return (
    <Table.Tr data-testid={`device-row-${name}`}>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <TypeIcon type={device.type} />
          {device.meter ? (
            <Text
              component={Link}
              to={`/check?meter=${encodeURIComponent(device.meter.meterNumber)}`}
              size="sm"
              fw={600}
              className={classes.mono}
              c="blue"
            >
              {name}
            </Text>
          ) : (
            <Text size="sm" fw={600} className={classes.mono}>
              {name}
            </Text>
          )}
        </Group>
        {device.meter ? (
          <Text size="xs" c="dimmed">
            {device.meter.removedAt
              ? t('admin.devices.removedOn', {
                  date: formatZonedDateTime(device.meter.removedAt, i18n.language, timeZone),
                })
              : t('admin.devices.positionShort', { meterInd: device.meter.meterInd })}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>{t(typeKeys[device.type] ?? 'admin.devices.type.meter')}</Table.Td>
      {locationId === null ? (
        <Table.Td>
          <Text size="sm" component={Link} to={`/admin/devices?location=${device.locationId}`} c="blue">
            {device.locationName}
          </Text>
        </Table.Td>
      ) : null}
      <Table.Td className={classes.mono}>{device.parentSerial ?? '—'}</Table.Td>
      <Table.Td>
        <PriorityBadge priority={device.priority} />
      </Table.Td>
      <Table.Td>
        <StatusBadge status={device.status} />
      </Table.Td>
      <Table.Td className={classes.nowrap}>
        <LastSeen at={device.lastSeenAt} timeZone={timeZone} />
      </Table.Td>
      <Table.Td className={classes.nowrap}>
        <Tooltip label={t('admin.devices.edit', { name })}>
          <ActionIcon
            variant="subtle"
            aria-label={t('admin.devices.edit', { name })}
            onClick={() => onDialog({ kind: 'edit', device })}
          >
            <IconPencil size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        {isCurrentMeter ? (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={t('admin.devices.more', { name })}>
                <IconDots size={18} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                leftSection={<IconSwitchHorizontal size={16} aria-hidden />}
                onClick={() => onDialog({ kind: 'move', device })}
              >
                {t('admin.move.action')}
              </Menu.Item>
              <Menu.Item
                leftSection={<IconExchange size={16} aria-hidden />}
                onClick={() => onDialog({ kind: 'exchange', device })}
              >
                {t('admin.exchange.action')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}
