import { Badge, Text, Tooltip } from '@mantine/core';
import { IconAccessPoint, IconBolt, IconBox } from '@tabler/icons-react';
import { DeviceType, type DeviceStatus } from '@cm/contracts/enums.ts';
import { useTranslation } from 'react-i18next';
import { devicePriorityLabels, deviceStatusLabels, toPriorityId } from '@/components/device-status.ts';
import { ToneBadge } from '@/components/tone-badge.tsx';
import { formatRelative, formatZonedDateTime } from '@/lib/format.ts';

/** The icon of a device type. */
export function TypeIcon({ type }: { type: number }) {
  if (type === DeviceType.AccessPoint) return <IconAccessPoint size={16} aria-hidden />;
  if (type === DeviceType.Cube) return <IconBox size={16} aria-hidden />;
  return <IconBolt size={16} aria-hidden />;
}

/** A device's status. */
export function StatusBadge({ status }: { status: DeviceStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="dot" color={deviceStatusLabels[status].color} size="sm">
      {t(deviceStatusLabels[status].key)}
    </Badge>
  );
}

/** A device's priority. */
export function PriorityBadge({ priority }: { priority: number }) {
  const { t } = useTranslation();
  const { key, color } = devicePriorityLabels[toPriorityId(priority)];
  // Own colours at 4.5:1 in both skins: Mantine's light orange "MEDIUM" read at 3.61:1 (issue 34).
  return <ToneBadge tone={color}>{t(key)}</ToneBadge>;
}

/** When a device last reported, relative, with the date in its location's zone on hover. */
export function LastSeen({ at, timeZone }: { at: string | null; timeZone: string }) {
  const { t, i18n } = useTranslation();
  if (!at) {
    return (
      <Text size="sm" c="dimmed">
        {t('admin.devices.neverSeen')}
      </Text>
    );
  }
  return (
    <Tooltip label={formatZonedDateTime(at, i18n.language, timeZone)}>
      <Text size="sm" component="time" dateTime={at}>
        {formatRelative(at, i18n.language)}
      </Text>
    </Tooltip>
  );
}
