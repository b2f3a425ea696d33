import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { isErrorBody } from '@/lib/contract-guards.ts';
import { endSession, readApiKey, type Failure } from '@/lib/http-client.ts';
import { saveFile } from '@/lib/save-file.ts';
import { readAccessToken } from '@/lib/storage.ts';

/** Export options, named as the API names them (From/To: local days at the meter's location). */
export interface ExportOptions {
  meterNumber: string;
  From: string;
  To: string;
  format: 'csv' | 'espi';
}

/** The export URL. */
export function exportUrl(options: ExportOptions): string {
  const params = new URLSearchParams({
    meterNumber: options.meterNumber.trim(),
    From: options.From,
    To: options.To,
    format: options.format,
  });
  return `/api/admin/exports/readings?${params.toString()}`;
}

/** The file name the server suggests (Content-Disposition), else one built from the options. */
export function downloadName(disposition: string | null, options: ExportOptions): string {
  const star = disposition ? /filename\*=UTF-8''([^;]+)/i.exec(disposition) : null;
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall through to the plain name
    }
  }
  const plain = disposition ? /filename="?([^";]+)"?/i.exec(disposition) : null;
  if (plain?.[1]) return plain[1];
  const safe = options.meterNumber.trim().replace(/[^\w.-]+/g, '_');
  return `${safe}_${options.From}_${options.To}.${options.format === 'csv' ? 'csv' : 'xml'}`;
}

/**
 * Downloads `url` with the app's API key and bearer token (a plain link could carry neither) and
 * hands it to the browser as a file, named as the server says or by `nameOf`.
 */
export async function downloadFile(
  url: string,
  fallbackName: string,
  signal?: AbortSignal,
  nameOf: (disposition: string | null) => string = () => fallbackName,
): Promise<{ ok: true; fileName: string } | { ok: false; failure: Failure }> {
  const headers = new Headers({ [API_KEY_HEADER]: readApiKey() });
  const token = readAccessToken();
  if (token !== null) headers.set('Authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(url, { headers, ...(signal ? { signal } : {}), credentials: 'same-origin' });
  } catch {
    return {
      ok: false,
      failure: { status: signal?.aborted ? 'ABORTED' : 'NETWORK_ERROR', message: null, param: null },
    };
  }
  if (!response.ok) {
    if (response.status === 401) endSession('expired');
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    return {
      ok: false,
      failure: {
        status: response.status,
        message: isErrorBody(body) ? body.message : null,
        param: isErrorBody(body) ? (body.param ?? null) : null,
      },
    };
  }
  const fileName = nameOf(response.headers.get('content-disposition'));
  saveFile(await response.blob(), fileName);
  return { ok: true, fileName };
}

/** Downloads an export (its name from the server, else from the options). */
export function downloadExport(options: ExportOptions, signal: AbortSignal) {
  return downloadFile(exportUrl(options), '', signal, (disposition) => downloadName(disposition, options));
}
