import {
  carbonSeriesBodySchema,
  priceSeriesBodySchema,
  type CarbonSeriesDraft,
  type PriceSeriesDraft,
} from '@cm/contracts/market-series.ts';
import type { SeriesKind } from './series-api.ts';

/** The import form as typed: a file goes into a new series (`target` "new") or an existing one (its id). */
export interface SeriesImportValues {
  kind: SeriesKind;
  target: string;
  name: string;
  intervalMinutes: string;
  timeZone: string;
  unit: string;
  currency: string;
  zone: string;
  region: string;
}

/** A new series is the form's first choice. */
export const NEW_SERIES = 'new';

/** What the form asks the server to do. */
export type SeriesImportRequest =
  | { kind: 'price'; draft: PriceSeriesDraft }
  | { kind: 'carbon'; draft: CarbonSeriesDraft }
  | { kind: SeriesKind; id: number };

/** The fields a new series may be refused for, each with its sentence. */
export type SeriesField = 'name' | 'intervalMinutes' | 'timeZone' | 'unit' | 'currency' | 'zone' | 'region';
const FIELDS: readonly SeriesField[] = [
  'name',
  'intervalMinutes',
  'timeZone',
  'unit',
  'currency',
  'zone',
  'region',
];
const isField = (value: unknown): value is SeriesField => FIELDS.some((field) => field === value);

export const initialImportValues = (timeZone: string): SeriesImportValues => ({
  kind: 'price',
  target: NEW_SERIES,
  name: '',
  intervalMinutes: '60',
  timeZone,
  unit: 'MWh',
  currency: 'EUR',
  zone: '',
  region: '',
});

/**
 * The form's request, or the fields that are wrong (i18n keys `admin.series.errors.<field>`). A
 * new series is checked by the contract's own schema, so the page and the server agree.
 */
export function toImportRequest(
  values: SeriesImportValues,
): { request: SeriesImportRequest } | { errors: Partial<Record<SeriesField, string>> } {
  if (values.target !== NEW_SERIES) return { request: { kind: values.kind, id: Number(values.target) } };
  const common = {
    name: values.name,
    intervalMinutes: Number(values.intervalMinutes),
    timeZone: values.timeZone,
  };
  const parsed =
    values.kind === 'price'
      ? priceSeriesBodySchema.safeParse({
          ...common,
          unit: values.unit,
          currency: values.currency.trim().toUpperCase(),
          zone: values.zone,
        })
      : carbonSeriesBodySchema.safeParse({ ...common, region: values.region });
  if (parsed.success)
    return {
      request:
        'unit' in parsed.data
          ? { kind: 'price', draft: parsed.data }
          : { kind: 'carbon', draft: parsed.data },
    };
  const errors: Partial<Record<SeriesField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (isField(field)) errors[field] = `admin.series.errors.${field}`;
  }
  return { errors };
}
