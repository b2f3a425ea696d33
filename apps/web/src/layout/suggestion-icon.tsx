import {
  IconBolt,
  IconBuildingCommunity,
  IconDevices,
  IconFileText,
  IconGauge,
  IconMapPin,
  IconSettings,
  IconUsers,
} from '@tabler/icons-react';

interface SuggestionIconProps {
  /** The icon name the server sends ('check', 'location', 'meter', 'users', 'devices', …). */
  name: string;
  size?: number;
}

/** Maps the server's icon names to icons; unknown names get a neutral page icon. Decorative. */
export function SuggestionIcon({ name, size = 18 }: SuggestionIconProps) {
  const props = { size, stroke: 1.75, 'aria-hidden': true } as const;
  switch (name) {
    case 'check':
      return <IconGauge {...props} />;
    case 'location':
      return <IconMapPin {...props} />;
    case 'meter':
      return <IconBolt {...props} />;
    case 'users':
      return <IconUsers {...props} />;
    case 'devices':
      return <IconDevices {...props} />;
    case 'admin':
    case 'settings':
      return <IconSettings {...props} />;
    case 'site':
      return <IconBuildingCommunity {...props} />;
    default:
      return <IconFileText {...props} />;
  }
}
