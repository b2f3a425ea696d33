import type { z } from 'zod';

/*
 * The admin forms check their values with the contract's own schemas (the ones the server
 * validates the request with), so the browser and the server never disagree about a limit. A
 * form turns its values into the request body, parses it, and shows each field's first problem
 * as an i18n key next to that field; the rules only the browser can check (a time before the
 * meter's installation) come on top.
 */

/** One problem zod found. */
export type Issue = z.ZodError['issues'][number];

/** The first problem of each of `fields`, as the i18n key `messageOf` gives for it. */
export function fieldErrors<F extends string>(
  error: z.ZodError,
  fields: readonly F[],
  messageOf: (field: F, issue: Issue) => string,
): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {};
  for (const issue of error.issues) {
    const field = fields.find((name) => name === issue.path[0]);
    if (field !== undefined && errors[field] === undefined) errors[field] = messageOf(field, issue);
  }
  return errors;
}

/** A number as typed (Mantine's NumberInput gives a number, or text such as '' or '1234,5'); null when none. */
export function typedNumber(value: number | string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = value.trim().replace(',', '.');
  if (text === '') return null;
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : null;
}

/** The problems as text (as a form shows them): each i18n key translated, with `values` for its placeholders. */
export function translateErrors(
  errors: Partial<Record<string, string>>,
  t: (key: string, values?: Record<string, unknown>) => string,
  values: Record<string, unknown> = {},
): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [field, key] of Object.entries(errors)) if (key !== undefined) texts[field] = t(key, values);
  return texts;
}
