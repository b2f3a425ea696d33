import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCESS_LOG_CSV_HEADER,
  accessLogCsvQuerySchema,
  accessLogQuerySchema,
  accessLogSchema,
} from '@cm/contracts/access-log.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { z } from 'zod';
import { callerOf } from '../../plugins/authentication.ts';
import type { AccessLogService } from './access-log.service.ts';

/** Sends the CSV as it is read (never serialized against the schema), as an attachment. */
function sendCsv(reply: FastifyReply, file: { fileName: string; body: Readable }) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
    .send(file.body);
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** "Who read my data": a client's own meters, any meter for an administrator (issue 37). */
export const accessLogRoutes: FastifyPluginAsyncZod<{ accessLog: AccessLogService }> = async (
  app,
  { accessLog },
) => {
  app.get(
    '/api/CheckMeter/WhoReadMyData',
    {
      config: { replicaReads: true },
      preHandler: app.requireAbility('read', 'Check'),
      schema: {
        tags: ['check'],
        summary:
          "Who read one of the caller's meters' data, newest first: administrators opening it, API keys, webhooks, file exports and Download My Data, apps through a grant — when, which range, what kind of data, by whom. Kept three years.",
        querystring: accessLogQuerySchema,
        response: { 200: accessLogSchema, ...errors },
      },
    },
    async (request) => accessLog.list(callerOf(request), request.query),
  );

  app.get(
    '/api/CheckMeter/WhoReadMyData.csv',
    {
      config: { replicaReads: true },
      preHandler: app.requireAbility('read', 'Check'),
      schema: {
        tags: ['check'],
        summary:
          "The same log of one of the caller's meters, oldest first, as CSV (times in the location's zone with their offset).",
        querystring: accessLogCsvQuerySchema,
        response: {
          200: {
            description: 'The log, as an attachment.',
            content: { 'text/csv': { schema: z.string().describe(`CSV: ${ACCESS_LOG_CSV_HEADER}`) } },
          },
          ...errors,
        },
      },
    },
    async (request, reply) =>
      sendCsv(reply, await accessLog.csv(callerOf(request), request.query.meterNumber)),
  );
};
