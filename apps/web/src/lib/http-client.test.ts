// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BINARY_COLUMNS_TYPE } from '@cm/contracts/binary-columns.ts';
import { request, resetHttpClientState, setSessionLossHandler, toFailure } from './http-client.ts';
import { storageKeys } from './storage.ts';

const API_KEY = 'cm_test_key_123';

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

describe('http client', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let losses: string[];

  beforeEach(() => {
    document.head.innerHTML = `<meta name="cm-api-key" content="${API_KEY}">`;
    localStorage.clear();
    resetHttpClientState();
    losses = [];
    setSessionLossHandler((reason) => losses.push(reason));
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setSessionLossHandler(null);
  });

  function sentHeaders(call = 0): Headers {
    const init = fetchMock.mock.calls[call]?.[1] as RequestInit;
    return new Headers(init.headers);
  }

  it('asks for binary columns where the call says so, and reads them to the same value as JSON', async () => {
    // `{"v":{"$col":0}}` and one millionths column [1.5, null] (docs/api.md, "Binary columns").
    const header = new TextEncoder().encode('{"v":{"$col":0}}');
    const body = Uint8Array.from([
      0x43,
      0x4d,
      0x43,
      1,
      header.length,
      0,
      0,
      0,
      ...header,
      2,
      2,
      1,
      0b01,
      3,
      0xb8,
      0x17,
    ]);
    fetchMock.mockImplementation(() =>
      Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': BINARY_COLUMNS_TYPE } })),
    );
    const result = await request({ url: '/api/CheckMeter/x', acceptsBinaryColumns: true });
    expect(sentHeaders(0).get('Accept')).toBe(`${BINARY_COLUMNS_TYPE}, application/json;q=0.9`);
    expect(result).toEqual({ ok: true, status: 200, data: { v: [1.5, null] } });

    fetchMock.mockImplementation(() => Promise.resolve(json(200, { v: [1.5, null] })));
    expect(await request({ url: '/api/CheckMeter/x', acceptsBinaryColumns: true })).toEqual(result);
    await request({ url: '/api/bookmarks/data' });
    expect(sentHeaders(2).get('Accept')).toBe('application/json');
  });

  it('answers PARSE_ERROR for a binary body it cannot read', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(
        new Response('nonsense', { status: 200, headers: { 'content-type': BINARY_COLUMNS_TYPE } }),
      ),
    );
    const result = await request({ url: '/api/CheckMeter/x', acceptsBinaryColumns: true });
    expect(result).toMatchObject({ ok: false, error: { status: 'PARSE_ERROR' } });
  });

  it('sends the API key from the page on every call, and the bearer token when there is one', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(json(200, { ok: true })));
    await request({ url: '/api/bookmarks/data' });
    expect(sentHeaders(0).get('X-API-Key')).toBe(API_KEY);
    expect(sentHeaders(0).get('Authorization')).toBeNull();

    localStorage.setItem(storageKeys.accessToken, JSON.stringify('tok-1'));
    const result = await request({ url: '/api/search', params: { q: 'EM 1', skip: undefined } });
    expect(fetchMock.mock.calls[1]?.[0]).toBe('/api/search?q=EM+1');
    expect(sentHeaders(1).get('X-API-Key')).toBe(API_KEY);
    expect(sentHeaders(1).get('Authorization')).toBe('Bearer tok-1');
    expect(result).toEqual({ ok: true, status: 200, data: { ok: true } });
  });

  it('sends a raw body as it is under its own content type, JSON otherwise', async () => {
    fetchMock.mockResolvedValue(json(200, { stored: 1 }));
    await request({ url: '/api/x', method: 'POST', rawBody: { contentType: 'text/csv', text: 'a;1\n' } });
    await request({ url: '/api/y', method: 'POST', body: { a: 1 } });
    expect(sentHeaders(0).get('Content-Type')).toBe('text/csv');
    expect((fetchMock.mock.calls[0]?.[1] as RequestInit).body).toBe('a;1\n');
    expect(sentHeaders(1).get('Content-Type')).toBe('application/json');
    expect((fetchMock.mock.calls[1]?.[1] as RequestInit).body).toBe('{"a":1}');
  });

  it('never sends the index.html placeholder as a key', async () => {
    document.head.innerHTML = '<meta name="cm-api-key" content="__CM_API_KEY__">';
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fetchMock.mockResolvedValue(json(200, {}));
    await request({ url: '/api/x' });
    expect(sentHeaders(0).get('X-API-Key')).toBe('');
  });

  it('accepts 200–299 only; a 204 has no body', async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    expect(await request({ url: '/api/auth/logout', method: 'POST' })).toEqual({
      ok: true,
      status: 204,
      data: null,
    });
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 304 }));
    const result = await request({ url: '/api/x' });
    expect(result.ok).toBe(false);
  });

  it('ends the session once on a 401 of an authenticated call, however many calls fail', async () => {
    localStorage.setItem(storageKeys.accessToken, JSON.stringify('stale'));
    fetchMock.mockImplementation(() =>
      Promise.resolve(json(401, { statusCode: 401, error: 'Unauthorized', message: 'Session expired.' })),
    );
    const results = await Promise.all(Array.from({ length: 8 }, () => request({ url: '/api/search?q=a' })));
    expect(losses).toEqual(['expired']);
    for (const result of results) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatchObject({ status: 401, isSessionLoss: true });
    }
  });

  it('ends the session on a network error of an authenticated call', async () => {
    localStorage.setItem(storageKeys.accessToken, JSON.stringify('tok'));
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const [a, b] = await Promise.all([request({ url: '/api/a' }), request({ url: '/api/b' })]);
    expect(losses).toEqual(['network']);
    expect(a.ok || a.error.status).toBe('NETWORK_ERROR');
    expect(b.ok || b.error.isSessionLoss).toBe(true);
  });

  it('reports again for a new session after a lost one', async () => {
    localStorage.setItem(storageKeys.accessToken, JSON.stringify('first'));
    fetchMock.mockImplementation(() =>
      Promise.resolve(json(401, { statusCode: 401, error: 'Unauthorized', message: 'x' })),
    );
    await request({ url: '/api/a' });
    localStorage.setItem(storageKeys.accessToken, JSON.stringify('second'));
    await request({ url: '/api/a' });
    expect(losses).toEqual(['expired', 'expired']);
  });

  it('hands every other failure back to the caller: a failed login, 400 with param, 429, 500, an aborted call', async () => {
    fetchMock.mockResolvedValueOnce(
      json(401, { statusCode: 401, error: 'Unauthorized', message: 'Wrong email or password.' }),
    );
    const login = await request({
      url: '/api/auth/login',
      method: 'POST',
      body: { email: 'a@b.c', password: 'x' },
      withAuth: false,
    });
    expect(login.ok || login.error).toMatchObject({
      status: 401,
      isSessionLoss: false,
      body: { message: 'Wrong email or password.' },
    });

    localStorage.setItem(storageKeys.accessToken, JSON.stringify('tok'));
    fetchMock.mockResolvedValueOnce(
      json(400, { statusCode: 400, error: 'Bad Request', message: 'q is required.', param: 'q' }),
    );
    const bad = await request({ url: '/api/search' });
    expect(bad.ok || bad.error).toMatchObject({ status: 400, body: { param: 'q' } });

    fetchMock.mockResolvedValueOnce(
      json(
        429,
        { statusCode: 429, error: 'Too Many Requests', message: 'Try again in 2 minutes.' },
        { 'retry-after': '90' },
      ),
    );
    const throttled = await request({ url: '/api/x' });
    expect(throttled.ok || throttled.error).toMatchObject({ status: 429, retryAfterSeconds: 90 });

    fetchMock.mockResolvedValueOnce(new Response('oops', { status: 500 }));
    const failed = await request({ url: '/api/x' });
    expect(failed.ok || failed.error).toMatchObject({ status: 500, body: null });

    const controller = new AbortController();
    controller.abort();
    fetchMock.mockRejectedValueOnce(new DOMException('aborted', 'AbortError'));
    const aborted = await request({ url: '/api/x', signal: controller.signal });
    expect(aborted.ok || aborted.error.status).toBe('ABORTED');

    expect(losses).toEqual([]);
  });

  it('does not end the session for a call that opted out (logout)', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await request({ url: '/api/auth/logout', method: 'POST', token: 'tok', canLoseSession: false });
    expect(losses).toEqual([]);
  });
});

describe('toFailure', () => {
  it("reads a failed call's status, message and blamed parameter, and nothing from no error", () => {
    const body = { statusCode: 400, error: 'Bad Request', message: 'From must be a date.', param: 'From' };
    expect(toFailure({ status: 400, body, retryAfterSeconds: null, isSessionLoss: false })).toEqual({
      status: 400,
      message: 'From must be a date.',
      param: 'From',
    });
    expect(
      toFailure({ status: 'NETWORK_ERROR', body: null, retryAfterSeconds: null, isSessionLoss: true }),
    ).toEqual({ status: 'NETWORK_ERROR', message: null, param: null });
    expect(toFailure(undefined)).toBeNull();
  });

  it('calls anything else (an RTK Query or a thrown error) unknown', () => {
    expect(toFailure({ status: 'CUSTOM_ERROR', error: 'x' })).toEqual({
      status: 'UNKNOWN',
      message: null,
      param: null,
    });
    expect(toFailure(new Error('boom'))?.status).toBe('UNKNOWN');
  });
});
