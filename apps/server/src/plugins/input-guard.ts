import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../http-error.ts';

// Deeper than any CM body; a deeper one is refused by its schema anyway.
const MAX_DEPTH = 32;

/** The dotted path of the first string (or key) holding a NUL character, '' for the value itself. */
function findNul(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return undefined;
  // Parsed JSON and query objects only: a streamed upload (imports) is checked by its own parser.
  if (Buffer.isBuffer(value) || typeof (value as { pipe?: unknown }).pipe === 'function') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return at;
    const found = findNul(item, at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * PostgreSQL cannot store NUL in text, and no field of CM's holds one: a NUL anywhere in the query,
 * path or JSON body is refused with 400 naming the parameter, before any route schema or query sees
 * it (found by the API fuzz tests: NUL in a search or an address answered 500).
 */
export const inputGuard = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    for (const [part, value] of [
      ['query', request.query],
      ['path', request.params],
      ['body', request.body],
    ] as const) {
      const at = findNul(value, '', 0);
      if (at !== undefined) {
        throw badRequest(`${at || `The request ${part}`} must not contain NUL characters.`, at || undefined);
      }
    }
  });
});
