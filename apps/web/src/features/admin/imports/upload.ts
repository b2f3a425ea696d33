import { importJobSchema, type ImportJob } from '@cm/contracts/import-jobs.ts';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { isErrorBody } from '@/lib/contract-guards.ts';
import { endSession, readApiKey, type Failure } from '@/lib/http-client.ts';
import { readAccessToken } from '@/lib/storage.ts';

/** What an upload ended with: the import job the server made of the file, or a failure. */
export type UploadOutcome = { kind: 'job'; job: ImportJob } | { kind: 'failed'; failure: Failure };

/** The URL a file is uploaded to as an import job. */
export const uploadUrl = (fileName: string) =>
  `/api/admin/imports/jobs?fileName=${encodeURIComponent(fileName)}`;

/** Reads the server's answer to an upload (pure, so it is tested without a network). */
export function readUploadAnswer(status: number, body: unknown): UploadOutcome {
  if (status === 201) {
    const parsed = importJobSchema.safeParse(body);
    if (parsed.success) return { kind: 'job', job: parsed.data };
    return { kind: 'failed', failure: { status: 'PARSE_ERROR', message: null, param: null } };
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
 * Sends a file as the raw body of `POST /api/admin/imports/jobs` with XMLHttpRequest, whose upload
 * events give a progress bar (fetch has none for request bodies). It carries the same API key
 * and bearer token as the app's HTTP client; a 401 ends the session as any other call would.
 * The server detects the format from the content, so the file goes as it is.
 */
export function uploadImportFile(
  file: File,
  onProgress: (sent: number, total: number) => void,
  signal: AbortSignal,
): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', uploadUrl(file.name));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader(API_KEY_HEADER, readApiKey());
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
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
      resolve(readUploadAnswer(xhr.status, body));
    };
    xhr.onerror = () =>
      resolve({ kind: 'failed', failure: { status: 'NETWORK_ERROR', message: null, param: null } });
    xhr.onabort = () =>
      resolve({ kind: 'failed', failure: { status: 'ABORTED', message: null, param: null } });
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
