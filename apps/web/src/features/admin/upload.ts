import { importRefusedSchema, importReportSchema, type ImportReport } from '@cm/contracts/admin.ts';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { isErrorBody } from '@/lib/contract-guards.ts';
import { endSession, readApiKey, type Failure } from '@/lib/http-client.ts';
import { readAccessToken } from '@/lib/storage.ts';

/** Import options, named as the API names them. */
export interface ImportOptions {
  format: 'csv' | 'espi';
  timeZone?: string;
  meterNumber?: string;
  strict: boolean;
}

/** What an upload ended with: a report (stored, or refused with 422), or a failure. */
export type UploadOutcome =
  | { kind: 'report'; report: ImportReport }
  | { kind: 'refused'; message: string; report: ImportReport }
  | { kind: 'failed'; failure: Failure };

/** The query string of an import. */
export function importUrl(options: ImportOptions): string {
  const params = new URLSearchParams({ format: options.format, strict: String(options.strict) });
  if (options.timeZone) params.set('timeZone', options.timeZone);
  if (options.meterNumber?.trim()) params.set('meterNumber', options.meterNumber.trim());
  return `/api/admin/imports?${params.toString()}`;
}

/** Reads the server's answer to an import (pure, so it is tested without a network). */
export function readImportAnswer(status: number, body: unknown): UploadOutcome {
  if (status === 200) {
    const parsed = importReportSchema.safeParse(body);
    if (parsed.success) return { kind: 'report', report: parsed.data };
    return { kind: 'failed', failure: { status: 'PARSE_ERROR', message: null, param: null } };
  }
  if (status === 422) {
    const parsed = importRefusedSchema.safeParse(body);
    if (parsed.success) return { kind: 'refused', message: parsed.data.message, report: parsed.data.report };
  }
  return {
    kind: 'failed',
    failure: {
      status,
      message: isErrorBody(body) ? body.message : null,
      param: isErrorBody(body) ? (body.param ?? null) : null,
    },
  };
}

/**
 * Sends a file as the raw body of `POST /api/admin/imports` with XMLHttpRequest, whose upload
 * events give a progress bar (fetch has none for request bodies). It carries the same API key
 * and bearer token as the app's HTTP client; a 401 ends the session as any other call would.
 */
export function uploadImport(
  file: Blob,
  options: ImportOptions,
  onProgress: (sent: number, total: number) => void,
  signal: AbortSignal,
): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', importUrl(options));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader(API_KEY_HEADER, readApiKey());
    xhr.setRequestHeader('Content-Type', options.format === 'csv' ? 'text/csv' : 'application/atom+xml');
    const token = readAccessToken();
    if (token !== null) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) =>
      onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText === '' ? null : JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status === 401) endSession('expired');
      resolve(readImportAnswer(xhr.status, body));
    };
    xhr.onerror = () =>
      resolve({ kind: 'failed', failure: { status: 'NETWORK_ERROR', message: null, param: null } });
    xhr.onabort = () =>
      resolve({ kind: 'failed', failure: { status: 'ABORTED', message: null, param: null } });
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
