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
