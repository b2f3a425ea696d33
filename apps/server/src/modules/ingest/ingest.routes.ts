import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ingestBodySchema, ingestResultSchema, MAX_INGEST_BATCH } from '@cm/contracts/admin.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { forbidden } from '../../http-error.ts';
import type { IngestService } from './ingest.service.ts';

// 5,000 readings of about 100 bytes each, with room to spare.
const INGEST_BODY_LIMIT = MAX_INGEST_BATCH * 400;

/** `POST /api/ingest/readings`: devices send readings with an API key of scope `ingest` (checked by the API key guard); no user. */
export const ingestRoutes: FastifyPluginAsyncZod<{ ingest: IngestService }> = async (app, { ingest }) => {
  app.post(
    '/api/ingest/readings',
    {
      bodyLimit: INGEST_BODY_LIMIT,
      schema: {
        tags: ['ingest'],
        summary: `A batch of at most ${MAX_INGEST_BATCH} register readings from an AccessPoint or Cube; answers accepted / duplicate / rejected per reading.`,
        body: ingestBodySchema,
        response: {
          200: ingestResultSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request) => {
      const key = request.apiKey;
      if (!key) throw forbidden('This API key may not ingest readings (scope ingest needed).');
      return ingest.ingest({ userId: null, apiKeyId: key.id }, request.body);
    },
  );
};
