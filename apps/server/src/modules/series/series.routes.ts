import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@cm/contracts/admin.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import {
  carbonSeriesBodySchema,
  carbonSeriesImportQuerySchema,
  carbonSeriesSchema,
  cleanestHoursQuerySchema,
  cleanestHoursSchema,
  locationCarbonBodySchema,
  priceSeriesBodySchema,
  priceSeriesImportQuerySchema,
  priceSeriesSchema,
  seriesDayBodySchema,
  seriesDayParamsSchema,
  seriesDaySchema,
  seriesStoredSchema,
} from '@cm/contracts/market-series.ts';
import { z } from 'zod';
import { forbidden } from '../../http-error.ts';
import { actorOf, adminOnly, adminErrors } from '../../plugins/admin-only.ts';
import { callerOf } from '../../plugins/authentication.ts';
import type { SeriesKind, SeriesService } from './series.service.ts';

const tags = ['series'];
const errors = { ...adminErrors, 422: errorBodySchema };
// A year of 5-minute lines of about 40 bytes, with room to spare.
const CSV_BODY_LIMIT = 8 * 1024 * 1024;
const PATHS: Record<SeriesKind, string> = { price: 'price-series', carbon: 'carbon-series' };
const csvBody = z.string({ message: 'Send the file as text/csv.' });
const WHAT: Record<SeriesKind, string> = { price: 'price', carbon: 'carbon intensity (gCO2e/kWh)' };

/** Administrators create price and carbon series, upload files, put days, and assign carbon to locations. */
export const adminSeriesRoutes: FastifyPluginAsyncZod<{ series: SeriesService }> = async (
  app,
  { series },
) => {
  adminOnly(app);
  // A series file is sent as it is, `Content-Type: text/csv`.
  app.addContentTypeParser(
    'text/csv',
    { parseAs: 'string', bodyLimit: CSV_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  app.get(
    '/api/admin/price-series',
    {
      schema: {
        tags,
        summary: 'Price series with their coverage.',
        response: { 200: z.array(priceSeriesSchema), ...errors },
      },
    },
    async () => series.listPrices(),
  );
  app.post(
    '/api/admin/price-series',
    {
      schema: {
        tags,
        summary:
          'Create a price series: interval, unit (per kWh or MWh), currency, the market zone and its clock.',
        body: priceSeriesBodySchema,
        response: { 201: priceSeriesSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await series.createPrice(actorOf(request), request.body)),
  );
  app.post(
    '/api/admin/price-series/import',
    {
      bodyLimit: CSV_BODY_LIMIT,
      schema: {
        tags,
        summary:
          'Create a price series with its CSV file (Content-Type: text/csv; the series in the query). A bad line refuses both (422, lines named): nothing is created.',
        querystring: priceSeriesImportQuerySchema,
        body: csvBody,
        response: { 201: priceSeriesSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await series.importNewPrice(actorOf(request), request.query, request.body)),
  );
  app.get(
    '/api/admin/price-series/:id',
    {
      schema: {
        tags,
        summary: 'A price series with its coverage.',
        params: idParamsSchema,
        response: { 200: priceSeriesSchema, ...errors },
      },
    },
    async (request) => series.getPrice(request.params.id),
  );
  app.get(
    '/api/admin/carbon-series',
    {
      schema: {
        tags,
        summary: 'Carbon series with their coverage.',
        response: { 200: z.array(carbonSeriesSchema), ...errors },
      },
    },
    async () => series.listCarbon(),
  );
  app.post(
    '/api/admin/carbon-series',
    {
      schema: {
        tags,
        summary: 'Create a carbon intensity series (gCO2e/kWh) for a grid region.',
        body: carbonSeriesBodySchema,
        response: { 201: carbonSeriesSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await series.createCarbon(actorOf(request), request.body)),
  );
  app.post(
    '/api/admin/carbon-series/import',
    {
      bodyLimit: CSV_BODY_LIMIT,
      schema: {
        tags,
        summary:
          'Create a carbon series with its CSV file of intensities (Content-Type: text/csv; the series in the query). A bad line refuses both (422): nothing is created.',
        querystring: carbonSeriesImportQuerySchema,
        body: csvBody,
        response: { 201: carbonSeriesSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await series.importNewCarbon(actorOf(request), request.query, request.body)),
  );
  app.get(
    '/api/admin/carbon-series/:id',
    {
      schema: {
        tags,
        summary: 'A carbon series with its coverage.',
        params: idParamsSchema,
        response: { 200: carbonSeriesSchema, ...errors },
      },
    },
    async (request) => series.getCarbon(request.params.id),
  );
  for (const kind of ['price', 'carbon'] as const) {
    app.post(
      `/api/admin/${PATHS[kind]}/:id/csv`,
      {
        bodyLimit: CSV_BODY_LIMIT,
        schema: {
          tags,
          summary: `Upload a CSV of interval start and ${WHAT[kind]} (Content-Type: text/csv). A bad line refuses the whole file (422, lines named); values of the same intervals are replaced.`,
          params: idParamsSchema,
          body: csvBody,
          response: { 200: seriesStoredSchema, ...errors },
        },
      },
      async (request) => series.importCsv(actorOf(request), kind, request.params.id, request.body),
    );
    app.get(
      `/api/admin/${PATHS[kind]}/:id/days/:date`,
      {
        schema: {
          tags,
          summary: `A local day's ${WHAT[kind]} values, one per interval, null where unknown.`,
          params: seriesDayParamsSchema,
          response: { 200: seriesDaySchema, ...errors },
        },
      },
      async (request) => series.day(kind, request.params.id, request.params.date),
    );
    app.put(
      `/api/admin/${PATHS[kind]}/:id/days/:date`,
      {
        schema: {
          tags,
          summary: `Replace a local day's ${WHAT[kind]} values: one per interval of the day on the series' clock (46 or 50 half hours on a DST change day).`,
          params: seriesDayParamsSchema,
          body: seriesDayBodySchema,
          response: { 200: seriesStoredSchema, ...errors },
        },
      },
      async (request) =>
        series.putDay(actorOf(request), kind, request.params.id, request.params.date, request.body.values),
    );
  }
  app.get(
    '/api/admin/locations/:id/carbon-series',
    {
      schema: {
        tags,
        summary: "The carbon series of a location's grid region.",
        params: idParamsSchema,
        response: { 200: locationCarbonBodySchema, ...errors },
      },
    },
    async (request) => series.locationCarbon(request.params.id),
  );
  app.put(
    '/api/admin/locations/:id/carbon-series',
    {
      schema: {
        tags,
        summary: "Assign the carbon series of a location's grid region (null: none).",
        params: idParamsSchema,
        body: locationCarbonBodySchema,
        response: { 200: locationCarbonBodySchema, ...errors },
      },
    },
    async (request) => series.setLocationCarbon(actorOf(request), request.params.id, request.body.seriesId),
  );
};

/** Market and grid feeds push a day of values with an API key of scope `ingest` (checked by the API key guard); no user. */
export const ingestSeriesRoutes: FastifyPluginAsyncZod<{ series: SeriesService }> = async (
  app,
  { series },
) => {
  for (const kind of ['price', 'carbon'] as const) {
    app.put(
      `/api/ingest/${PATHS[kind]}/:id/days/:date`,
      {
        schema: {
          tags: ['ingest', ...tags],
          summary: `A feed replaces a local day's ${WHAT[kind]} values (API key of scope ingest).`,
          params: seriesDayParamsSchema,
          body: seriesDayBodySchema,
          response: {
            200: seriesStoredSchema,
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
            422: errorBodySchema,
          },
        },
      },
      async (request) => {
        if (!request.apiKey) throw forbidden('This API key may not ingest (scope ingest needed).');
        const feed = { userId: null, apiKeyId: request.apiKey.id };
        return series.putDay(feed, kind, request.params.id, request.params.date, request.body.values);
      },
    );
  }
};

/** A location's cleanest hours for whoever may see the location (a client: only its own). */
export const seriesRoutes: FastifyPluginAsyncZod<{ series: SeriesService }> = async (app, { series }) => {
  app.get(
    '/api/CheckMeter/GetCleanestHours',
    {
      config: { replicaReads: true },
      preHandler: app.requireAbility('read', 'Location'),
      schema: {
        tags,
        summary:
          "A local day's carbon intensity at a location's grid region (default: tomorrow, a forecast) and its cleanest quarter of intervals.",
        querystring: cleanestHoursQuerySchema,
        response: {
          200: cleanestHoursSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => series.cleanestHours(callerOf(request), request.query.name, request.query.date),
  );
};
