import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers.ts';

/** A CSP header as directive → sources. */
const directives = (csp: string) =>
  new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );

describe('security headers', () => {
  it("sends helmet's headers with CM's CSP on every answer, and HSTS only over HTTPS", async () => {
    const app = Fastify({ trustProxy: true });
    await app.register(securityHeaders);
    app.get('/api/health', async () => ({ status: 'ok' }));
    try {
      const plain = await app.inject({ method: 'GET', url: '/api/health' });
      expect(Object.fromEntries(directives(String(plain.headers['content-security-policy'])))).toEqual({
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'font-src': ["'self'", 'data:'],
        'object-src': ["'none'"],
        'frame-ancestors': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
      });
      expect(plain.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
      });
      expect(plain.headers['strict-transport-security']).toBeUndefined();
      const secure = await app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await app.close();
    }
  });
});
