import type { TFunction } from 'i18next';

/** A meter as the lists name it: "Meter 3 · EM-10009 · Apt C-101" (its name last, when it has one). */
export function meterOptionText(
  t: TFunction,
  meter: { meterInd: number; meterNumber: string; label: string },
): string {
  return meter.label
    ? t('check.lookup.meterOptionNamed', { ...meter })
    : t('check.lookup.meterOption', { meterInd: meter.meterInd, meterNumber: meter.meterNumber });
}
