/** One request the page sent: its method, path (with the query) and JSON body. */
export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

/** An answer: a status and a JSON body (none for 204). */
export interface StubAnswer {
  status?: number;
  body?: unknown;
}

/** Answers by `METHOD /path` (the path without its query); a function sees the request. */
export type StubRoutes = Record<string, StubAnswer | ((request: SentRequest) => StubAnswer)>;

/**
 * A stand-in for the server behind `fetch`, for page tests: it answers the routes it is given,
 * 404 with an error body for any other, and records every request in `sent`. Tests install it
 * with `vi.stubGlobal('fetch', server.fetch)`; the page's own HTTP client, RTK Query and zod
 * parsing run as in the app.
 */
export function stubServer(routes: StubRoutes) {
  const sent: SentRequest[] = [];
  async function fetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    const url = new URL(String(input), 'http://cm.test');
    const method = (init.method ?? 'GET').toUpperCase();
    const text = typeof init.body === 'string' ? init.body : null;
    const request = { method, path: `${url.pathname}${url.search}`, body: text ? JSON.parse(text) : null };
    sent.push(request);
    const route = routes[`${method} ${url.pathname}`];
    const answer = typeof route === 'function' ? route(request) : (route ?? null);
    if (answer === null)
      return json(404, {
        statusCode: 404,
        error: 'Not Found',
        message: `${method} ${url.pathname} is not stubbed.`,
      });
    return answer.body === undefined
      ? new Response(null, { status: answer.status ?? 204 })
      : json(answer.status ?? 200, answer.body);
  }
  return {
    fetch,
    sent,
    /** The requests sent to `METHOD /path` (query ignored). */
    sentTo: (key: string) =>
      sent.filter((request) => `${request.method} ${request.path.split('?')[0]}` === key),
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
