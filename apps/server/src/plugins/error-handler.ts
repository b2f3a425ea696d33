import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody } from '@cm/contracts/errors.ts';
import { HttpError } from '../http-error.ts';

function body(statusCode: number, message: string, param?: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, ...(param ? { param } : {}) };
}

// Fastify's own 4xx codes (bad JSON, body too large, wrong content type) in words a person can act on.
const fastifyMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type; send application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body.',
};

/**
 * Errors Fastify raises before any route or hook runs (set as the `frameworkErrors` option): a URL
 * whose percent-encoding is not UTF-8, a path parameter over maxParamLength. Without this they go
 * out raw, in another shape, echoing the URL and without the security headers.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  // No onRequest hook (so no helmet) runs for these: the headers a JSON error needs are set here.
  void reply.headers({
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
  });
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.status(414).send(body(414, 'A part of the URL path is too long.'));
  }
  return reply.status(400).send(body(400, 'The URL is not valid: check its percent-encoded characters.'));
}

/** One error handler: JSON `{ statusCode, error, message }`, 4xx messages that name the bad parameter, 5xx details never leaked. */
export const errorHandler = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) void reply.headers(error.headers);
      return reply.status(error.statusCode).send(body(error.statusCode, error.message, error.param));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const location = error.validationContext ?? 'request';
      const param = issue?.instancePath.split('/').filter(Boolean).join('.') || undefined;
      const detail = issue?.message ?? 'is invalid';
      // A field's message names the field ("from must be …"); inside a list the path names it already.
      const field = param?.split('.').pop() ?? '';
      const named =
        param && detail.startsWith(param) ? param : field && detail.startsWith(field) ? field : '';
      const message = param
        ? `${param}: ${named ? detail.slice(named.length).replace(/^\s+/, '') || 'is invalid.' : detail}`
        : `Invalid ${location}: ${detail}`;
      return reply.status(400).send(body(400, message.replace(/^(\w+): \1 /, '$1 '), param));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send(body(500, 'Something went wrong on our side. Please try again.'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = fastifyMessages[error.code] ?? error.message;
      return reply.status(status).send(body(status, message));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('Retry-After', '5')
        .send(body(503, 'The database is not reachable right now. Please try again in a moment.'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body(500, 'Something went wrong on our side. Please try again.'));
  });
});

// A database that is down, restarting or cut off: connection refused or reset, the socket gone
// while the embedded server restarts, PostgreSQL shutting down (57P01–57P03), a lost connection.
const UNAVAILABLE_CODES = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08006',
  '08001',
];

function isDatabaseUnavailable(error: Error & { code?: string; syscall?: string }): boolean {
  return (
    UNAVAILABLE_CODES.includes(error.code ?? '') ||
    (error.code === 'ENOENT' && error.syscall === 'connect') ||
    /timeout exceeded when trying to connect|Connection terminated|connection error and is not queryable/i.test(
      error.message,
    )
  );
}
