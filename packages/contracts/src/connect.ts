import { z } from 'zod';
import { textParam } from './text.ts';

// Green Button Connect My Data (issue 37): third-party apps an administrator registers, which a
// customer may later let read some of their meters' data.

/** What an app may ask to read: interval readings, register readings, cost, the meters' details. */
export const connectDataKinds = ['intervals', 'registers', 'cost', 'details'] as const;
export type ConnectDataKind = (typeof connectDataKinds)[number];

/** An app's state: it may be asked for consent, or it is suspended (its grants have ended). */
export const connectAppStatuses = ['active', 'suspended'] as const;

/** Most redirect URIs an app may have. */
export const MAX_REDIRECT_URIS = 10;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why `text` cannot be an app's address, or null: an absolute https URL (http only on loopback, for
 * an app on the customer's own machine, RFC 8252 §7.3), without a fragment or user name.
 */
export function appUriProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL (https://…).';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)))
    return 'must use https (http only for localhost, 127.0.0.1 or [::1]).';
  if (url.hash !== '' || text.includes('#')) return 'must not have a fragment (#…).';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password.';
  return null;
}

const appUri = (param: string) =>
  textParam(param, 500).superRefine((value, context) => {
    const problem = appUriProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: `${param} ${problem}` });
  });

/** `POST /api/admin/connect/apps` body. */
export const createConnectAppBodySchema = z.object({
  name: textParam('name', 100),
  /** Who to reach at the app's maker: an e-mail address, a telephone number, a web page. */
  contact: textParam('contact', 200),
  /** Where CM sends the customer back after consent; matched exactly, character for character. */
  redirectUris: z
    .array(appUri('redirectUris'), { message: 'redirectUris must be a list of URLs.' })
    .min(1, 'redirectUris must hold at least one URL.')
    .max(MAX_REDIRECT_URIS, `redirectUris may hold at most ${MAX_REDIRECT_URIS} URLs.`)
    .refine((uris) => new Set(uris).size === uris.length, 'redirectUris must not repeat a URL.'),
  dataKinds: z
    .array(
      z.enum(connectDataKinds, { message: 'dataKinds may only hold intervals, registers, cost, details.' }),
    )
    .min(1, 'dataKinds must name at least one kind of data.')
    .max(connectDataKinds.length, 'dataKinds must not repeat a kind.')
    .refine((kinds) => new Set(kinds).size === kinds.length, 'dataKinds must not repeat a kind.'),
  /** Where CM POSTs the ESPI batch URIs after new data of a granted meter; none for no notices. */
  notificationUri: appUri('notificationUri').nullable().default(null),
});
export type CreateConnectAppBody = z.input<typeof createConnectAppBodySchema>;

/** A registered app as administrators see it (never its secret). */
export const connectAppSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  contact: z.string(),
  clientId: z.string(),
  redirectUris: z.array(z.string()),
  dataKinds: z.array(z.enum(connectDataKinds)),
  notificationUri: z.string().nullable(),
  status: z.enum(connectAppStatuses),
  createdAt: z.string(),
  suspendedAt: z.string().nullable(),
});
export type ConnectApp = z.infer<typeof connectAppSchema>;

/** `GET /api/admin/connect/apps` answer, newest first. */
export const connectAppListSchema = z.object({ items: z.array(connectAppSchema) });

/** `POST /api/admin/connect/apps` answer: the client secret, shown this once (only its SHA-256 is stored). */
export const createdConnectAppSchema = z.object({ app: connectAppSchema, clientSecret: z.string() });
export type CreatedConnectApp = z.infer<typeof createdConnectAppSchema>;

/** The longest a grant may last: three years (36 months) from the day it is given. */
export const MAX_GRANT_MONTHS = 36;

/** `GET /api/connect/consent/{uid}` answer: what the consent page shows the signed-in customer. */
export const consentRequestSchema = z.object({
  app: z.object({ name: z.string(), contact: z.string() }),
  /** The kinds of data the app asks for (those of its scopes it is registered for), in this order. */
  dataKinds: z.array(z.enum(connectDataKinds)),
  /** The customer's meters, to pick from. */
  meters: z.array(z.object({ meterNumber: z.string(), locationName: z.string() })),
  maxMonths: z.number().int(),
});
export type ConsentRequest = z.infer<typeof consentRequestSchema>;

const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** `POST /api/connect/consent/{uid}/allow` body: the customer's choice. */
export const allowConsentBodySchema = z.object({
  /** The meters the app may read: at least one, each one of the customer's. */
  meterNumbers: z
    .array(textParam('meterNumbers', 100))
    .min(1, 'meterNumbers must hold at least one meter.')
    .max(500, 'meterNumbers may hold at most 500 meters.')
    .refine((numbers) => new Set(numbers).size === numbers.length, 'meterNumbers must not repeat a meter.'),
  /** The data from this day (UTC), YYYY-MM-DD. */
  from: z
    .string({ message: 'from is required.' })
    .regex(isoDay, 'from must be a date YYYY-MM-DD.')
    .refine((day) => {
      const parsed = new Date(`${day}T00:00:00Z`);
      return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day);
    }, 'from must be a real date.'),
  /** How long the grant lasts from today, in months, 1 to MAX_GRANT_MONTHS. */
  months: z
    .number({ message: 'months must be a whole number.' })
    .int('months must be a whole number.')
    .min(1, 'months must be at least 1.')
    .max(MAX_GRANT_MONTHS, `months must be at most ${MAX_GRANT_MONTHS} (three years).`),
});
export type AllowConsentBody = z.infer<typeof allowConsentBodySchema>;

/** The consent answers: where the browser goes next (back to the app, through the OAuth server). */
export const consentDoneSchema = z.object({ redirectTo: z.string() });
export type ConsentDone = z.infer<typeof consentDoneSchema>;

/** A grant: an app's access to some of a customer's meters, as the customer and administrators see it. */
export const connectGrantSchema = z.object({
  id: z.number().int(),
  app: z.object({ id: z.number().int(), name: z.string() }),
  /** The customer (administrators' list; the customer's own e-mail in theirs). */
  user: z.object({ id: z.number().int(), email: z.string() }),
  meterNumbers: z.array(z.string()),
  dataKinds: z.array(z.enum(connectDataKinds)),
  /** The data from this instant, until `until`, when the grant ends too. */
  from: z.string(),
  until: z.string(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  /** Who ended it: the customer, an administrator, the app (suspended or removed), or `reuse` (a refresh token used twice). */
  revokedBy: z.string().nullable(),
});
export type ConnectGrant = z.infer<typeof connectGrantSchema>;

/** `GET /api/connect/grants` and `GET /api/admin/connect/grants` answer, newest first. */
export const connectGrantListSchema = z.object({ items: z.array(connectGrantSchema) });
export type ConnectGrantList = z.infer<typeof connectGrantListSchema>;
