import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { badRequest } from '../../http-error.ts';
import { InvalidTokenError, type EspiApiService, type EspiAsk } from './espi-api.service.ts';

const tags = ['espi'];
const BASE = '/espi/1_1/resource';
const id = (param: string) =>
  z.coerce
    .number({ message: `${param} must be a whole number.` })
    .int(`${param} must be a whole number.`)
    .min(1, `${param} must be at least 1.`)
    .max(2_147_483_647, `${param} is too large.`);
const instant = (param: string) =>
  z.iso
    .datetime({ offset: true, message: `${param} must be an instant, e.g. 2026-03-01T00:00:00Z.` })
    .optional();
/** ESPI's range: published-min/max, or updated-min/max (the data's own instants: CM publishes as it stores). */
const rangeQuerySchema = z.object({
  'published-min': instant('published-min'),
  'published-max': instant('published-max'),
  'updated-min': instant('updated-min'),
  'updated-max': instant('updated-max'),
});
const subscriptionParams = z.object({ subscriptionId: id('subscriptionId') });
const usagePointParams = subscriptionParams.extend({ usagePointId: id('usagePointId') });
const meterReadingParams = usagePointParams.extend({
  meterReadingId: id('meterReadingId').max(4, 'meterReadingId is 1 to 4.'),
});
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const response = { 200: z.string().describe('An ESPI Atom feed (application/atom+xml).'), ...errors };

function bearer(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

function rangeOf(query: z.infer<typeof rangeQuerySchema>): { minMs?: number; maxMs?: number } {
  const instants = (...values: Array<string | undefined>) =>
    values.filter((value) => value !== undefined).map((value) => Date.parse(value));
  // Both bounds given (published and updated): the narrower range.
  const mins = instants(query['published-min'], query['updated-min']);
  const maxes = instants(query['published-max'], query['updated-max']);
  const range = {
    ...(mins.length > 0 ? { minMs: Math.max(...mins) } : {}),
    ...(maxes.length > 0 ? { maxMs: Math.min(...maxes) } : {}),
  };
  if (range.minMs !== undefined && range.maxMs !== undefined && range.minMs >= range.maxMs)
    throw badRequest('published-min must be before published-max.', 'published-min');
  return range;
}

/**
 * Green Button Connect My Data's ESPI resource API (issue 37): a grant's access token reads its
 * subscription (the grant) as Atom feeds. Outside /api: no CM API key, the bearer token is the
 * app's; a missing, expired or revoked one answers 401 with the RFC 6750 challenge.
 */
export const espiApiRoutes: FastifyPluginAsyncZod<{ espi: EspiApiService }> = async (app, { espi }) => {
  app.setErrorHandler(async (error, _request, reply) => {
    if (error instanceof InvalidTokenError)
      void reply.header(
        'WWW-Authenticate',
        `Bearer error="invalid_token", error_description="${error.message}"`,
      );
    throw error;
  });
  const serve = async (request: FastifyRequest, reply: FastifyReply, ask: Omit<EspiAsk, 'selfHref'>) => {
    const grant = await espi.grantOf(bearer(request));
    const body = await espi.read(grant, { ...ask, selfHref: request.url });
    return reply.type('application/atom+xml; charset=utf-8').header('Cache-Control', 'no-store').send(body);
  };
  app.get(
    `${BASE}/Batch/Subscription/:subscriptionId`,
    {
      schema: {
        tags,
        summary:
          "Everything of a subscription (a grant): every granted meter's UsagePoint, LocalTimeParameters, UsageSummary (a grant of cost), MeterReadings, ReadingTypes and IntervalBlocks of the kinds and dates granted.",
        params: subscriptionParams,
        querystring: rangeQuerySchema,
        response,
      },
    },
    async (request, reply) =>
      serve(request, reply, {
        subscriptionId: request.params.subscriptionId,
        part: 'all',
        what: 'Batch/Subscription',
        ...rangeOf(request.query),
      }),
  );
  app.get(
    `${BASE}/Subscription/:subscriptionId/UsagePoint`,
    {
      schema: {
        tags,
        summary: "The subscription's usage points (the granted meters) with their LocalTimeParameters.",
        params: subscriptionParams,
        response,
      },
    },
    async (request, reply) =>
      serve(request, reply, {
        subscriptionId: request.params.subscriptionId,
        part: 'usage-point',
        what: 'UsagePoint',
      }),
  );
  app.get(
    `${BASE}/Subscription/:subscriptionId/UsagePoint/:usagePointId/MeterReading`,
    {
      schema: {
        tags,
        summary:
          "A usage point's MeterReadings (1 import registers, 2 import energy per interval, 3 and 4 the same for export) with their ReadingTypes, those of the kinds granted.",
        params: usagePointParams,
        response,
      },
    },
    async (request, reply) =>
      serve(request, reply, {
        subscriptionId: request.params.subscriptionId,
        usagePointId: request.params.usagePointId,
        part: 'meter-readings',
        what: 'MeterReading',
      }),
  );
  app.get(
    `${BASE}/Subscription/:subscriptionId/UsagePoint/:usagePointId/UsageSummary`,
    {
      schema: {
        tags,
        summary:
          "A usage point's UsageSummary: its bill over the grant's dates (or published-min/max within them) at its location's tariffs, in hundred-thousandths of the currency, with the energy imported; only for a grant of cost, empty without a tariff.",
        params: usagePointParams,
        querystring: rangeQuerySchema,
        response,
      },
    },
    async (request, reply) =>
      serve(request, reply, {
        subscriptionId: request.params.subscriptionId,
        usagePointId: request.params.usagePointId,
        part: 'usage-summary',
        what: 'UsageSummary',
        ...rangeOf(request.query),
      }),
  );
  app.get(
    `${BASE}/Subscription/:subscriptionId/UsagePoint/:usagePointId/MeterReading/:meterReadingId/IntervalBlock`,
    {
      schema: {
        tags,
        summary:
          "A MeterReading's IntervalBlocks (one per local day) in published-min/max (or updated-min/max), within the grant's dates.",
        params: meterReadingParams,
        querystring: rangeQuerySchema,
        response,
      },
    },
    async (request, reply) =>
      serve(request, reply, {
        subscriptionId: request.params.subscriptionId,
        usagePointId: request.params.usagePointId,
        part: { blocksOf: request.params.meterReadingId },
        what: 'IntervalBlock',
        ...rangeOf(request.query),
      }),
  );
};
