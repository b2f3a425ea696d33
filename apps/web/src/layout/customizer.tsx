import { Drawer, Group, Radio, Stack, Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '@/app/hooks.ts';
import {
  contentWidthChanged,
  contentWidths,
  footerTypeChanged,
  footerTypes,
  menuCollapsedChanged,
  navbarTypeChanged,
  navbarTypes,
  rtlChanged,
  selectLayout,
  skinChanged,
  skins,
} from './layout-slice.ts';

interface ChoiceProps<T extends string> {
  label: string;
  value: T;
  options: readonly T[];
  labelKey: (option: T) => string;
  onChange: (value: T) => void;
}

function Choice<T extends string>({ label, value, options, labelKey, onChange }: ChoiceProps<T>) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      label={label}
      value={value}
      onChange={(next) => {
        const match = options.find((option) => option === next);
        if (match) onChange(match);
      }}
    >
      <Group mt="xs" gap="md">
        {options.map((option) => (
          <Radio key={option} value={option} label={t(labelKey(option))} />
        ))}
      </Group>
    </Radio.Group>
  );
}

interface CustomizerProps {
  opened: boolean;
  onClose: () => void;
  /** On a phone the menu is a drawer: collapsing it means nothing there, so it is not offered. */
  isPhone: boolean;
}

/** The layout customizer: skin, direction, content width, navbar, footer and menu. */
export function Customizer({ opened, onClose, isPhone }: CustomizerProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const layout = useAppSelector(selectLayout);

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      title={t('customizer.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size={360}
    >
      <Stack gap="lg">
        <Choice
          label={t('customizer.skin')}
          value={layout.skin}
          options={skins}
          labelKey={(skin) => `customizer.skin.${skin}`}
          onChange={(skin) => dispatch(skinChanged(skin))}
        />
        <Choice
          label={t('customizer.direction')}
          value={layout.isRtl ? 'rtl' : 'ltr'}
          options={['ltr', 'rtl'] as const}
          labelKey={(dir) => `customizer.direction.${dir}`}
          onChange={(dir) => dispatch(rtlChanged(dir === 'rtl'))}
        />
        <Choice
          label={t('customizer.contentWidth')}
          value={layout.contentWidth}
          options={contentWidths}
          labelKey={(width) => `customizer.contentWidth.${width}`}
          onChange={(width) => dispatch(contentWidthChanged(width))}
        />
        <Choice
          label={t('customizer.navbar')}
          value={layout.navbarType}
          options={navbarTypes}
          labelKey={(type) => `customizer.navbar.${type}`}
          onChange={(type) => dispatch(navbarTypeChanged(type))}
        />
        <Choice
          label={t('customizer.footer')}
          value={layout.footerType}
          options={footerTypes}
          labelKey={(type) => `customizer.footer.${type}`}
          onChange={(type) => dispatch(footerTypeChanged(type))}
        />
        {isPhone ? null : (
          <Switch
            label={t('customizer.menuCollapsed')}
            checked={layout.isMenuCollapsed}
            onChange={(event) => dispatch(menuCollapsedChanged(event.currentTarget.checked))}
          />
        )}
      </Stack>
    </Drawer>
  );
}
