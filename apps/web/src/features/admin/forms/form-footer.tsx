import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Failure } from '@/lib/http-client.ts';
import { FailureAlert } from '../admin-ui.tsx';

/**
 * The end of an admin form: a failure that belongs to no field, then Cancel and the form's own
 * submit button (busy while the call runs).
 */
export function FormFooter({
  failure,
  context = 'other',
  onCancel,
  isSaving,
  submitLabel,
}: {
  failure: Failure | null;
  context?: 'user' | 'other';
  onCancel: () => void;
  isSaving: boolean;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <FailureAlert failure={failure} context={context} />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel}>
          {t('admin.actions.cancel')}
        </Button>
        <Button type="submit" loading={isSaving}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
