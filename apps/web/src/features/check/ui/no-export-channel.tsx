import { VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The export of a meter that has no export channel (issue 34.12): a dash that reads as "no export
 * channel", never "unknown", which would say data is missing.
 */
export function NoExportChannel() {
  const { t } = useTranslation();
  const label = t('check.table.noExportChannel');
  return (
    <span title={label} data-testid="no-export-channel">
      <span aria-hidden>—</span>
      <VisuallyHidden>{label}</VisuallyHidden>
    </span>
  );
}
