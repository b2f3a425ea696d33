import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../http-error.ts';

// Deeper than any CM body; a deeper one is refused by its schema anyway.
const MAX_DEPTH = 32;

// An unpaired UTF-16 surrogate is not text: it cannot be stored as UTF-8 (found by the fuzz tests:
// an address with a lone \udfff answered 500).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/** The dotted path of the first string (or key) that is not storable text, '' for the value itself. */
function findUnstorable(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path;
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return undefined;
  // Parsed JSON and query objects only: a streamed upload (imports) is checked by its own parser.
  if (Buffer.isBuffer(value) || typeof (value as { pipe?: unknown }).pipe === 'function') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (!isStorableText(key)) return at;
    const found = findUnstorable(item, at, depth + 1);
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
      const at = findUnstorable(value, '', 0);
      if (at !== undefined) {
        throw badRequest(
          `${at || `The request ${part}`} must be valid text (no NUL characters or unpaired surrogates).`,
          at || undefined,
        );
      }
    }
  });
});
