import http from 'node:http';
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

/**
 * Runs this process's own HTTP client (fetch and the body read) over `rounds` answers of `bytes`
 * from a throwaway server in this process, so that a benchmark's first timed requests do not pay
 * for the client's code being compiled. In a fresh process the first 20 reads of a 0.77 MB answer
 * took a median 5.8 ms against 2.5 ms once warm, the server answering from memory: an artefact of
 * the benchmark, not the server's latency. CM itself is not asked anything.
 */
export async function warmUpClient(bytes = 800_000, rounds = 60): Promise<void> {
  const body = Buffer.alloc(bytes, 0x31);
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  try {
    if (address === null || typeof address === 'string') throw new Error('no port to warm up on');
    for (let round = 0; round < rounds; round++) {
      const answer = await call(`http://127.0.0.1:${address.port}/warm-up`);
      if (answer.status !== 200) throw new Error(`client warm-up: ${answer.status} ${answer.error ?? ''}`);
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
