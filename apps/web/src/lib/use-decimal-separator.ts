import { useTranslation } from 'react-i18next';

/** The decimal separator of the interface language ("," in fr, de and pt; "." in en). */
export function useDecimalSeparator(): string {
  const { i18n } = useTranslation();
  return (
    new Intl.NumberFormat(i18n.language).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ??
    '.'
  );
}
