import { ActionIcon, Anchor, Table, Text, Tooltip } from '@mantine/core';
import { IconArchive, IconPencil, IconRestore } from '@tabler/icons-react';
import type { AdminLocation } from '@cm/contracts/admin.ts';
import { useTranslation } from 'react-i18next';
import { ToneBadge } from '@/components/tone-badge.tsx';
import { formatDate, formatNumber } from '@/lib/format.ts';
import classes from '../admin.module.css';

interface LocationRowProps {
  location: AdminLocation;
  onMeters: (location: AdminLocation) => void;
  onEdit: (location: AdminLocation) => void;
  onArchive: (location: AdminLocation) => void;
  onRestore: (location: AdminLocation) => void;
}

/** One row of the location table: name and address, zone, meters, status, and the actions. */
export function LocationRow({ location, onMeters, onEdit, onArchive, onRestore }: LocationRowProps) {
  const { t, i18n } = useTranslation();
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600}>
          {location.publicName}
        </Text>
        {location.address ? (
          <Text size="xs" c="dimmed">
            {location.address}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td className={classes.nowrap}>
        <Text size="sm">{location.timeZone}</Text>
      </Table.Td>
      <Table.Td>
        <Anchor component="button" type="button" size="sm" onClick={() => onMeters(location)}>
          {t('admin.locations.meterCount', {
            count: location.meterCount,
            formatted: formatNumber(location.meterCount, i18n.language),
          })}
        </Anchor>
      </Table.Td>
      <Table.Td>
        {location.archivedAt ? (
          <Tooltip label={formatDate(location.archivedAt, i18n.language, location.timeZone)}>
            <span>
              <ToneBadge tone="gray">{t('admin.locations.status.archived')}</ToneBadge>
            </span>
          </Tooltip>
        ) : (
          // Own colours: Mantine's light teal badge read below 4.5:1 (issue 34, axe on every admin page).
          <ToneBadge tone="green">{t('admin.locations.status.active')}</ToneBadge>
        )}
      </Table.Td>
      <Table.Td className={classes.nowrap}>
        <Tooltip label={t('admin.locations.edit', { name: location.publicName })}>
          <ActionIcon
            variant="subtle"
            onClick={() => onEdit(location)}
            aria-label={t('admin.locations.edit', { name: location.publicName })}
          >
            <IconPencil size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        {location.archivedAt ? (
          <Tooltip label={t('admin.locations.restore', { name: location.publicName })}>
            <ActionIcon
              variant="subtle"
              color="teal"
              onClick={() => onRestore(location)}
              aria-label={t('admin.locations.restore', { name: location.publicName })}
            >
              <IconRestore size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        ) : (
          <Tooltip label={t('admin.locations.archive', { name: location.publicName })}>
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() => onArchive(location)}
              aria-label={t('admin.locations.archive', { name: location.publicName })}
            >
              <IconArchive size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
