import http from 'node:http';

/**
 * One request over a real socket with the path sent exactly as given. fastify.inject parses its
 * URL with WHATWG URL first, which resolves `.` and `..` segments: a test of odd path spellings
 * through it would only ever see the canonical path.
 */
export function rawRequest(
  port: number,
  request: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<{ statusCode: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port,
        method: request.method,
        path: request.path,
        headers: {
          ...request.headers,
          ...(request.body === undefined ? {} : { 'content-length': Buffer.byteLength(request.body) }),
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}
