import { NativeSelect } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { languages, nativeLanguageNames, toLanguage } from '@/lib/languages.ts';

/**
 * Chooses the interface language; the detector caches the choice in local storage (spec §4).
 * A native select: keyboard and screen-reader friendly everywhere, and light on the login page.
 * Compact (a phone's navbar, where the row is full) drops the icon so "Português" still fits.
 */
export function LanguageSwitcher({ isCompact = false }: { isCompact?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = toLanguage(i18n.resolvedLanguage ?? i18n.language);

  return (
    <NativeSelect
      aria-label={t('language.label')}
      value={current}
      onChange={(event) => void i18n.changeLanguage(toLanguage(event.currentTarget.value))}
      leftSection={isCompact ? undefined : <IconLanguage size={18} aria-hidden />}
      variant="filled"
      w={isCompact ? 124 : 172}
      style={{ flexShrink: 0 }}
      data={languages.map((lng) => ({ value: lng, label: nativeLanguageNames[lng] }))}
    />
  );
}
