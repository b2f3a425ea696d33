import { Drawer } from '@mantine/core';
import type { AdminUser } from '@cm/contracts/admin.ts';
import { useTranslation } from 'react-i18next';
import { UserForm } from './user-form.tsx';

interface UserDrawerProps {
  /** The user to edit, `'new'` to create one, null when closed. */
  user: AdminUser | 'new' | null;
  onClose: () => void;
}

/** Create or edit a user: name, email, role and, for a client, the locations it may see. */
export function UserDrawer({ user, onClose }: UserDrawerProps) {
  const { t } = useTranslation();
  const isNew = user === 'new';
  return (
    <Drawer
      closeButtonProps={{ 'aria-label': t('common.close') }}
      opened={user !== null}
      onClose={onClose}
      position="right"
      size="md"
      title={isNew ? t('admin.users.form.createTitle') : t('admin.users.form.editTitle')}
    >
      {user !== null ? (
        <UserForm key={isNew ? 'new' : user.id} user={isNew ? null : user} onDone={onClose} />
      ) : null}
    </Drawer>
  );
}
