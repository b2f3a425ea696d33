import { Checkbox, type CheckboxProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** "Main supply": the meter measures the location's whole supply, its other meters are sub-meters behind it. */
export function MainSupplyField(props: Pick<CheckboxProps, 'checked' | 'onChange' | 'error'>) {
  const { t } = useTranslation();
  return (
    <Checkbox
      {...props}
      label={t('admin.devices.fields.mainSupply')}
      description={t('admin.devices.form.mainSupplyHint')}
    />
  );
}
