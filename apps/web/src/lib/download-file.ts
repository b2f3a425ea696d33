import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { isErrorBody } from './contract-guards.ts';
import { endSession, readApiKey, type Failure } from './http-client.ts';
import { saveFile } from './save-file.ts';
import { readAccessToken } from './storage.ts';

/** The file name a Content-Disposition header gives (`filename*` first), else null. */
export function dispositionName(disposition: string | null): string | null {
  const star = disposition ? /filename\*=UTF-8''([^;]+)/i.exec(disposition) : null;
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall through to the plain name
    }
  }
  const plain = disposition ? /filename="?([^";]+)"?/i.exec(disposition) : null;
  return plain?.[1] ?? null;
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
