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
import { baseloadQuerySchema, baseloadSchema } from '@cm/contracts/baseload.ts';
import { acceptsBinaryColumns, sendBinaryColumns } from '../../binary-columns.ts';
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
      config: { replicaReads: true },
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
      config: { replicaReads: true },
      preHandler: app.requireAbility('read', 'Check'),
      schema: {
        tags: ['check'],
        summary:
          'A location\'s meters and their readings between From and To (dates are whole local days in the location\'s time zone; To inclusive), as columns with totals, gaps and events. With `Accept: application/vnd.checkmeter.columns` the same value in a compact binary form (docs/api.md, "Binary columns").',
        querystring: locationReadingsQuerySchema,
        response: { 200: locationReadingsSchema, ...errors },
      },
    },
    // The answer can hold hundreds of thousands of numbers, already typed against the schema at
    // compile time: written as bytes by the column writer instead of the schema serializer, or in
    // the binary form (the same value, far fewer bytes) when the Accept header asks for it.
    async (request, reply) => {
      const answer = await check.locationReadings(
        callerOf(request),
        request.query,
        readerOf(request.auth, request.apiKey),
      );
      void reply.header('vary', 'Accept');
      return acceptsBinaryColumns(request.headers.accept)
        ? sendBinaryColumns(reply, answer)
        : sendJsonBytes(reply, answer, plainJson);
    },
  );

  app.get(
    '/api/CheckMeter/GetReadingCorrections',
    {
      config: { replicaReads: true },
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
      config: { replicaReads: true },
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

  app.get(
    '/api/CheckMeter/GetBaseload',
    {
      config: { replicaReads: true },
      preHandler: app.requireAbility('read', 'Check'),
      schema: {
        tags: ['check'],
        summary:
          "A meter's always-on power (the median, over the 14 nights before To, of each night's lowest whole-hour mean power; night is 00:00–06:00 local) against the 14 nights before, and the share of its energy used at night between From and To against the same number of days before.",
        querystring: baseloadQuerySchema,
        response: { 200: baseloadSchema, ...errors },
      },
    },
    async (request) => check.baseload(callerOf(request), request.query),
  );
};
