import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { BINARY_COLUMNS_TYPE, decodeBinaryColumns } from '@cm/contracts/binary-columns.ts';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import type { ErrorBody } from '@cm/contracts/errors.ts';
import { nextTask } from './next-task.ts';
import type { SessionLossReason } from './config.ts';
import { isErrorBody } from './contract-guards.ts';
import { readAccessToken } from './storage.ts';

/** The placeholder the server replaces in index.html at serve time. */
export const API_KEY_PLACEHOLDER = '__CM_API_KEY__';

/** One request. `url` is relative to the origin (`/api/...`). */
export interface HttpRequest {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  params?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** A body sent as it is under its own content type (a CSV file), instead of `body` as JSON. */
  rawBody?: { contentType: string; text: string };
  signal?: AbortSignal;
  /** Send the stored bearer token (default true). */
  withAuth?: boolean;
  /** Send this token instead of the stored one (logout sends the token it is ending). */
  token?: string;
  /** A network error or 401 on this call ends the session (default true). */
  canLoseSession?: boolean;
  /** Ask for the binary columns form (readings) before JSON; either is read to the same value. */
  acceptsBinaryColumns?: boolean;
}

/**
 * A failed request, handed back to the caller. `status` is the HTTP status, or
 * `NETWORK_ERROR` (no answer), `ABORTED` (the caller gave up) or `PARSE_ERROR`.
 */
export interface HttpError {
  status: number | 'NETWORK_ERROR' | 'ABORTED' | 'PARSE_ERROR';
  body: ErrorBody | null;
  /** Seconds from the Retry-After header (429), when sent. */
  retryAfterSeconds: number | null;
  /** True when this failure ended the session (the app already logged out). */
  isSessionLoss: boolean;
}

/** What a page needs from a failed call: its status, the server's words and the parameter it blamed. */
export interface Failure {
  status: HttpError['status'] | 'UNKNOWN';
  message: string | null;
  param: string | null;
}

/** True for the errors this client hands back (RTK Query's own errors are not). */
export function isHttpError(error: unknown): error is HttpError {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    'body' in error &&
    'isSessionLoss' in error
  );
}

/**
 * Reads a failed call: an RTK Query error (ours is always an HttpError; anything else is unknown)
 * or what a mutation's `unwrap()` threw. Null when there is no error.
 */
export function toFailure(error: unknown): Failure | null {
  if (error === undefined || error === null) return null;
  if (isHttpError(error))
    return { status: error.status, message: error.body?.message ?? null, param: error.body?.param ?? null };
  return { status: 'UNKNOWN', message: null, param: null };
}

/** A request's outcome; `data` is checked by whoever asked (zod schemas from @cm/contracts). */
export type HttpResult = { ok: true; status: number; data: unknown } | { ok: false; error: HttpError };

/** What the app does when a session is lost. Wired once by the app; the client only reports. */
export interface SessionLossHandler {
  (reason: SessionLossReason): void;
}

let onSessionLoss: SessionLossHandler | null = null;
/** The token whose loss was already reported: later failures with it stay quiet (one logout, one message). */
let lostToken: string | null = null;
let cachedApiKey: string | null = null;

/** Registers what happens when a session is lost (network error or 401 on an authenticated call). */
export function setSessionLossHandler(handler: SessionLossHandler | null): void {
  onSessionLoss = handler;
}

/** For tests: forget the cached API key and the lost token. */
export function resetHttpClientState(): void {
  lostToken = null;
  cachedApiKey = null;
}

/** The API key the server put into index.html (never part of the bundle). */
export function readApiKey(): string {
  if (cachedApiKey !== null) return cachedApiKey;
  const content = document.querySelector('meta[name="cm-api-key"]')?.getAttribute('content') ?? '';
  const key = content === API_KEY_PLACEHOLDER ? '' : content.trim();
  if (key === '') console.warn('Check Meter: no API key in the page; API calls will be refused.');
  cachedApiKey = key;
  return key;
}

function buildUrl(url: string, params: HttpRequest['params']): string {
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) search.set(name, String(value));
  }
  const query = search.toString();
  if (query === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

function parseRetryAfter(value: string | null): number | null {
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith(BINARY_COLUMNS_TYPE)) return decodeBinaryColumns(await response.arrayBuffer());
  const text = await response.text();
  if (text === '') return null;
  if (type.includes('json')) {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  }
  return text;
}

function reportLoss(token: string | null, reason: SessionLossReason): boolean {
  // Only a call that carried a session can lose it; a failed login attempt is the caller's business.
  if (token === null) return false;
  if (token === lostToken) return true;
  lostToken = token;
  onSessionLoss?.(reason);
  return true;
}

/** Ends the current session the same way a failed call would (e.g. its token ran out). */
export function endSession(reason: SessionLossReason): void {
  reportLoss(readAccessToken(), reason);
}

/**
 * Sends one request to the API. Every call carries the API key header; authenticated calls
 * carry the bearer token. No timeout; statuses 200–299 succeed (spec §9). A network error or
 * a 401 on an authenticated call ends the session once (spec §8); every other failure goes
 * back to the caller. The client never shows toasts itself, so background refetches stay quiet.
 */
export async function request(req: HttpRequest): Promise<HttpResult> {
  const token = req.token ?? (req.withAuth === false ? null : readAccessToken());
  const sessionToken = req.canLoseSession === false ? null : token;
  const headers = new Headers({
    Accept:
      req.acceptsBinaryColumns === true
        ? `${BINARY_COLUMNS_TYPE}, application/json;q=0.9`
        : 'application/json',
    [API_KEY_HEADER]: readApiKey(),
  });
  if (token !== null) headers.set('Authorization', `Bearer ${token}`);
  const hasBody = req.body !== undefined;
  if (req.rawBody) headers.set('Content-Type', req.rawBody.contentType);
  else if (hasBody) headers.set('Content-Type', 'application/json');

  let response: Response;
  try {
    response = await fetch(buildUrl(req.url, req.params), {
      method: req.method ?? 'GET',
      headers,
      body: req.rawBody ? req.rawBody.text : hasBody ? JSON.stringify(req.body) : null,
      signal: req.signal ?? null,
      credentials: 'same-origin',
    });
  } catch (cause) {
    if (req.signal?.aborted === true || (cause instanceof DOMException && cause.name === 'AbortError')) {
      return {
        ok: false,
        error: { status: 'ABORTED', body: null, retryAfterSeconds: null, isSessionLoss: false },
      };
    }
    const isSessionLoss = reportLoss(sessionToken, 'network');
    return {
      ok: false,
      error: { status: 'NETWORK_ERROR', body: null, retryAfterSeconds: null, isSessionLoss },
    };
  }

  let data: unknown;
  try {
    data = await readBody(response);
  } catch {
    if (response.ok) {
      return {
        ok: false,
        error: { status: 'PARSE_ERROR', body: null, retryAfterSeconds: null, isSessionLoss: false },
      };
    }
    data = null;
  }

  if (response.status >= 200 && response.status <= 299) {
    return { ok: true, status: response.status, data };
  }

  const isSessionLoss = response.status === 401 ? reportLoss(sessionToken, 'expired') : false;
  return {
    ok: false,
    error: {
      status: response.status,
      body: isErrorBody(data) ? data : null,
      retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')),
      isSessionLoss,
    },
  };
}

/**
 * RTK Query base query on top of {@link request}. The request leaves in a task of its own: queries
 * start from effects, which React often runs inside the commit that mounted them, and a fetch's
 * setup (~4 ms on a phone) would lengthen that one task for every answer asked (issue 38).
 */
export const httpBaseQuery: BaseQueryFn<HttpRequest | string, unknown, HttpError> = async (args, api) => {
  const req = typeof args === 'string' ? { url: args } : args;
  await nextTask();
  const result = await request({ ...req, signal: api.signal });
  return result.ok ? { data: result.data } : { error: result.error };
};
