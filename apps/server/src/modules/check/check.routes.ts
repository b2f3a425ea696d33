import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  locationReadingsQuerySchema,
  locationReadingsSchema,
  meterInfoQuerySchema,
  meterInfoSchema,
  readingCorrectionsQuerySchema,
  readingCorrectionsSchema,
} from '@cm/contracts/check.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { monthlyPeaksQuerySchema, monthlyPeaksSchema } from '@cm/contracts/demand.ts';
import { sendJsonBytes } from '../../json-columns.ts';
import { schemaJsonWriter } from '../../schema-json.ts';
import { callerOf } from '../../plugins/authentication.ts';
import { readerOf } from '../access-log/index.ts';
import type { PerformanceLayer } from '../../config.ts';
import type { CheckService } from './check.service.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** The spec's two calls (§7), paths and parameter names exactly as written. */
export const checkRoutes: FastifyPluginAsyncZod<{
  check: CheckService;
  disabledLayers: ReadonlySet<PerformanceLayer>;
}> = async (app, { check, disabledLayers }) => {
  const sendMeterInfo = schemaJsonWriter(meterInfoSchema, disabledLayers.has('schema-json'));
  const plainJson = disabledLayers.has('json-writer');
  app.get(
    '/api/CheckMeter/GetMeterInfo',
    {
      preHandler: app.requireAbility('read', 'Check'),
      schema: {
        tags: ['check'],
        summary:
          'One meter: what it is, where, its chain, whether it reports, its last reading and data completeness.',
        querystring: meterInfoQuerySchema,
        response: { 200: meterInfoSchema, ...errors },
      },
    },
    // The lookup every page and device asks most: written by a serializer compiled once from the
    // schema (only its properties, required ones checked), not validated again by zod on every request.
    async (request, reply) =>
      sendMeterInfo(
        reply,
        await check.meterInfo(
          callerOf(request),
          request.query.meterNumber,
          readerOf(request.auth, request.apiKey),
        ),
      ),
  );

  app.get(
    '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName',
    {
      preHandler: app.requireAbility('read', 'Check'),
      schema: {
        tags: ['check'],
        summary:
          "A location's meters and their readings between From and To (dates are whole local days in the location's time zone; To inclusive), as columns with totals, gaps and events.",
        querystring: locationReadingsQuerySchema,
        response: { 200: locationReadingsSchema, ...errors },
      },
    },
    // The answer can hold hundreds of thousands of numbers, already typed against the schema at
    // compile time: written as bytes by the column writer instead of the schema serializer.
    async (request, reply) =>
      sendJsonBytes(
        reply,
        await check.locationReadings(
          callerOf(request),
          request.query,
          readerOf(request.auth, request.apiKey),
        ),
        plainJson,
      ),
  );

  app.get(
    '/api/CheckMeter/GetReadingCorrections',
    {
      preHandler: app.requireAbility('read', 'Check'),
      schema: {
        tags: ['check'],
        summary:
          "Values of a meter's channel between From and To that a later import or device batch corrected: before and after, when and from what, newest first (what was shown earlier).",
        querystring: readingCorrectionsQuerySchema,
        response: { 200: readingCorrectionsSchema, ...errors },
      },
    },
    async (request) =>
      check.readingCorrections(callerOf(request), request.query, readerOf(request.auth, request.apiKey)),
  );

  app.get(
    '/api/CheckMeter/GetMonthlyPeaks',
    {
      preHandler: app.requireAbility('read', 'Check'),
      schema: {
        tags: ['check'],
        summary:
          'Peak demand (kW: the highest average power of one interval) in each of the 12 local months ending with Month, of a meter (meterInd) or of the location (its main supply, else its meters summed interval by interval), and the rolling average a capacity tariff charges (each month at least 2.5 kW).',
        querystring: monthlyPeaksQuerySchema,
        response: { 200: monthlyPeaksSchema, ...errors },
      },
    },
    async (request) =>
      check.monthlyPeaks(callerOf(request), request.query, readerOf(request.auth, request.apiKey)),
  );
};
