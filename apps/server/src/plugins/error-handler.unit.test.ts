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

describe('a database that is down or restarting', () => {
  it('answers 503 with Retry-After, not 500, for each way the pool reports it', async () => {
    const app = Fastify();
    await app.register(errorHandler);
    // What pg and node:net raise while the embedded server is dead or starting again.
    const failures: Record<string, () => Error> = {
      refused: () =>
        Object.assign(new Error('connect ECONNREFUSED /data/postgres.run/.s.PGSQL.5432'), {
          code: 'ECONNREFUSED',
        }),
      socketGone: () =>
        Object.assign(new Error('connect ENOENT /data/postgres.run/.s.PGSQL.5432'), {
          code: 'ENOENT',
          syscall: 'connect',
        }),
      terminated: () => new Error('Connection terminated unexpectedly'),
      notQueryable: () => new Error('Client has encountered a connection error and is not queryable'),
      postmasterExit: () =>
        Object.assign(new Error('terminating connection due to unexpected postmaster exit'), {
          code: '57P01',
        }),
      crashShutdown: () =>
        Object.assign(new Error('terminating connection because of crash of another server process'), {
          code: '57P02',
        }),
      startingUp: () => Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    };
    app.get<{ Params: { kind: string } }>('/fail/:kind', async (request) => {
      throw (failures[request.params.kind] ?? (() => new Error('unknown')))();
    });
    // A missing file is not a database outage.
    app.get('/missing-file', async () => {
      throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT', syscall: 'open' });
    });
    try {
      for (const kind of Object.keys(failures)) {
        const response = await app.inject({ method: 'GET', url: `/fail/${kind}` });
        expect({ kind, status: response.statusCode, retryAfter: response.headers['retry-after'] }).toEqual({
          kind,
          status: 503,
          retryAfter: '5',
        });
      }
      expect((await app.inject({ method: 'GET', url: '/missing-file' })).statusCode).toBe(500);
    } finally {
      await app.close();
    }
  });
});
