import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { BENCH_WEB_API_KEY } from './server-process.ts';

export interface Answer {
  status: number;
  body: string;
  ms: number;
  /** Set when no HTTP answer came back (connection refused or reset, or the timeout). */
  error?: string;
}

/** One request on loopback with a hard timeout; never throws. */
export async function call(
  url: string,
  options: {
    method?: string;
    token?: string;
    body?: unknown;
    rawBody?: string;
    contentType?: string;
    timeoutMs?: number;
    apiKey?: string;
  } = {},
): Promise<Answer> {
  if (!/^http:\/\/127\.0\.0\.1[:/]/.test(url))
    throw new Error(`benchmarks only talk to 127.0.0.1, not ${url}`);
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: {
        [API_KEY_HEADER]: options.apiKey ?? BENCH_WEB_API_KEY,
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.rawBody !== undefined ? { 'content-type': options.contentType ?? 'text/plain' } : {}),
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      ...(options.rawBody !== undefined ? { body: options.rawBody } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const body = await response.text();
    return { status: response.status, body, ms: performance.now() - started };
  } catch (error) {
    const cause =
      error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return { status: 0, body: '', ms: performance.now() - started, error: cause };
  }
}

export async function login(base: string, email: string, password: string): Promise<string> {
  const answer = await call(`${base}/api/auth/login`, { method: 'POST', body: { email, password } });
  if (answer.status !== 200) throw new Error(`login ${email}: ${answer.status} ${answer.body}`);
  return (JSON.parse(answer.body) as { token: string }).token;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
