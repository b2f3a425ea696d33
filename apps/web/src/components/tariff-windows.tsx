import { tariffDays, type TariffDay } from '@cm/contracts/tariff-days.ts';
import type { Tariff, TariffWindow } from '@cm/contracts/tariffs.ts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format.ts';

const WEEK = tariffDays.filter((day) => day !== 'holiday');

/** A tariff's price as its administrator typed it ("0.1126"), with its currency: never rounded to cents. */
export function tariffPriceText(text: string, currency: string, locale: string): string {
  return `${formatNumber(Number(text), locale, { maximumFractionDigits: 6 })} ${currency}`;
}

/** A window's day types in words: "Every day", a run "Mon–Fri", else "Sat, Sun", and the holidays. */
export function windowDaysText(days: readonly TariffDay[], t: TFunction): string {
  const name = (day: TariffDay) => t(`admin.tariffs.days.${day}`);
  const week = WEEK.filter((day) => days.includes(day));
  const first = WEEK.indexOf(week[0] ?? 'mon');
  const isRun = week.length > 2 && week.every((day, i) => WEEK.indexOf(day) === first + i);
  const weekText =
    week.length === WEEK.length
      ? t('tariff.everyDay')
      : isRun
        ? `${name(week[0] ?? 'mon')}–${name(week[week.length - 1] ?? 'sun')}`
        : week.map(name).join(', ');
  if (!days.includes('holiday')) return weekText;
  return weekText === '' ? name('holiday') : `${weekText}, ${name('holiday')}`;
}

/**
 * A tariff's time-of-use windows as lines a person reads (issue 34.13): "Vazio · Every day ·
 * 22:00–08:00 · 0.1126 EUR", months named when a window holds for a season only.
 */
export function TariffWindowLines({
  windows,
  currency,
}: {
  windows: readonly TariffWindow[];
  currency: string;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const month = new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' });
  if (windows.length === 0) return null;
  return (
    <ul data-testid="tariff-windows" style={{ margin: 0, paddingInlineStart: 16 }}>
      {windows.map((window, index) => (
        <li key={index}>
          {[
            window.label,
            windowDaysText(window.days, t),
            `${window.from}–${window.to}`,
            window.months && window.months.length > 0
              ? window.months.map((m) => month.format(Date.UTC(2026, m - 1, 1))).join(', ')
              : null,
            tariffPriceText(window.price, currency, locale),
          ]
            .filter((part) => part)
            .join(' · ')}
        </li>
      ))}
    </ul>
  );
}

/**
 * A tariff version's demand and capacity charges as lines (issue 36): "Demand charge 12 USD per kW
 * of the month's peak (15-minute average), Mon–Fri 14:00–19:00, at least 80 % of the highest of the
 * last 11 months", "Capacity charge 40 EUR per kW-year of the rolling 12-month average (at least
 * 2.5 kW a month)".
 */
export function TariffDemandLines({ demand, currency }: { demand: Tariff['demand']; currency: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  if (!demand) return null;
  const number = (text: string) => formatNumber(Number(text), locale, { maximumFractionDigits: 6 });
  return (
    <ul data-testid="tariff-demand" style={{ margin: 0, paddingInlineStart: 16 }}>
      {demand.pricePerKw === null ? null : (
        <li>
          {[
            t('tariff.demandCharge', {
              price: tariffPriceText(demand.pricePerKw, currency, locale),
              minutes: demand.intervalMinutes,
            }),
            demand.window
              ? `${windowDaysText(demand.window.days, t)} ${demand.window.from}–${demand.window.to}`
              : null,
            demand.ratchetPercent === null
              ? null
              : t('tariff.ratchet', { percent: number(demand.ratchetPercent) }),
          ]
            .filter((part) => part)
            .join(' · ')}
        </li>
      )}
      {demand.capacityPricePerKwYear === null ? null : (
        <li>
          {t('tariff.capacityCharge', {
            price: tariffPriceText(demand.capacityPricePerKwYear, currency, locale),
            floor: number(demand.capacityFloorKw),
          })}
        </li>
      )}
    </ul>
  );
}
