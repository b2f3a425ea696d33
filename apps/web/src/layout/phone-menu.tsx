import { Drawer } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { VerticalMenu } from './vertical-menu.tsx';

/** The menu on a phone: a drawer from the start side. Loaded when first opened. */
export function PhoneMenu({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      size={300}
      // Mantine lays drawers out with flex: 'left' is the start side, the right in RTL.
      position="left"
      title={t('menu.label')}
      closeButtonProps={{ 'aria-label': t('menu.close') }}
      withCloseButton
    >
      <VerticalMenu isCollapsed={false} onNavigate={onClose} />
    </Drawer>
  );
}
