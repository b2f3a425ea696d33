import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../http-error.ts';
import { errorHandler } from './error-handler.ts';

describe('error handler', () => {
  it('names each status by its HTTP reason phrase, the ones CM sends as before and any other too', async () => {
    const app = Fastify();
    await app.register(errorHandler);
    app.get<{ Params: { code: string } }>('/status/:code', async (request) => {
      throw new HttpError(Number(request.params.code), 'Told why.');
    });
    // The reason phrases of RFC 9110 §15 as CM has always sent them (413 under its RFC 7231 name).
    const names: Record<number, string> = {
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      405: 'Method Not Allowed',
      406: 'Not Acceptable',
      408: 'Request Timeout',
      409: 'Conflict',
      410: 'Gone',
      413: 'Payload Too Large',
      414: 'URI Too Long',
      415: 'Unsupported Media Type',
      416: 'Range Not Satisfiable',
      422: 'Unprocessable Entity',
      429: 'Too Many Requests',
      500: 'Internal Server Error',
      503: 'Service Unavailable',
    };
    try {
      for (const [code, error] of Object.entries(names)) {
        const response = await app.inject({ method: 'GET', url: `/status/${code}` });
        expect(response.statusCode).toBe(Number(code));
        expect(response.json()).toEqual({ statusCode: Number(code), error, message: 'Told why.' });
      }
    } finally {
      await app.close();
    }
  });
});
