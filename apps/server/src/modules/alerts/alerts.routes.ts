import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@cm/contracts/admin.ts';
import {
  alertInboxSchema,
  alertPreferencesBodySchema,
  alertPreferencesSchema,
  alertReadBodySchema,
  alertRuleBodySchema,
  alertRuleListQuerySchema,
  alertRuleListSchema,
  alertRuleSchema,
  createdWebhookSchema,
  mailSetupSchema,
  ownAlertRuleBodySchema,
  ownAlertRuleUpdateSchema,
  webhookBodySchema,
  webhookDeliverySchema,
  webhookSchema,
} from '@cm/contracts/alerts.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { z } from 'zod';
import { actorOf, adminOnly, adminErrors as errors } from '../../plugins/admin-only.ts';
import { callerOf } from '../../plugins/authentication.ts';
import type { AlertsService } from './alerts.service.ts';

const tags = ['alerts'];

/** Administrators set alert rules per location and can evaluate them at once. */
export const adminAlertsRoutes: FastifyPluginAsyncZod<{ alerts: AlertsService }> = async (
  app,
  { alerts },
) => {
  adminOnly(app);
  app.get(
    '/api/admin/mail',
    {
      schema: {
        tags,
        summary:
          'Whether alert e-mails can go out (CM_SMTP_URL), through which server and from whom, and the e-mails waiting or failed.',
        response: { 200: mailSetupSchema, ...errors },
      },
    },
    async () => alerts.mailSetup(),
  );
  app.get(
    '/api/admin/alert-rules',
    {
      schema: {
        tags,
        summary: 'Alert rules, by location, with the episodes going on now.',
        querystring: alertRuleListQuerySchema,
        response: { 200: alertRuleListSchema, ...errors },
      },
    },
    async (request) => ({ items: await alerts.rules(request.query.locationId) }),
  );
  app.post(
    '/api/admin/alert-rules',
    {
      schema: {
        tags,
        summary:
          'Add a rule for every meter of a location or one: silent for N hours, a day above N kWh or N × its usual, a register going down.',
        body: alertRuleBodySchema,
        response: { 201: alertRuleSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await alerts.addRule(actorOf(request), request.body)),
  );
  app.delete(
    '/api/admin/alert-rules/:id',
    {
      schema: {
        tags,
        summary: 'Remove a rule (its episodes and notifications go with it).',
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await alerts.removeRule(actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/admin/alerts/evaluate',
    {
      schema: {
        tags,
        summary:
          'Evaluate every rule now (the server also does on a schedule and after imports and device batches).',
        response: {
          200: z.object({
            rules: z.number().int(),
            meters: z.number().int(),
            fired: z.number().int(),
            cleared: z.number().int(),
            emailed: z.number().int(),
          }),
          ...errors,
        },
      },
    },
    async () => alerts.evaluate(),
  );
  app.get(
    '/api/admin/webhooks',
    {
      schema: {
        tags,
        summary: 'Webhooks told of every alert fired and cleared, with their deliveries by status.',
        response: { 200: z.object({ items: z.array(webhookSchema) }), ...errors },
      },
    },
    async () => ({ items: await alerts.webhooks() }),
  );
  app.post(
    '/api/admin/webhooks',
    {
      schema: {
        tags,
        summary:
          'Add a webhook: alert events are POSTed to it as JSON, signed (X-CM-Signature: t=…,v1=HMAC-SHA256 of "t.body"), retried with backoff. The secret is answered once.',
        body: webhookBodySchema.strict(),
        response: { 201: createdWebhookSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await alerts.addWebhook(actorOf(request), request.body.url)),
  );
  app.delete(
    '/api/admin/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Remove a webhook and its deliveries.',
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await alerts.removeWebhook(actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/api/admin/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        summary: "A webhook's latest deliveries: event, status, attempts, the endpoint's last answer.",
        params: idParamsSchema,
        response: { 200: z.object({ items: z.array(webhookDeliverySchema) }), ...errors },
      },
    },
    async (request) => ({ items: await alerts.deliveries(request.params.id) }),
  );
};

const signedInErrors = { 400: errorBodySchema, 401: errorBodySchema };

/** Each signed-in person's alerts (the bell) and how they want to hear of them. */
export const alertsRoutes: FastifyPluginAsyncZod<{ alerts: AlertsService }> = async (app, { alerts }) => {
  app.get(
    '/api/alerts',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary: "The caller's latest alert notifications (fired and cleared) and how many are unread.",
        response: { 200: alertInboxSchema, ...signedInErrors },
      },
    },
    async (request) => alerts.inbox(callerOf(request)),
  );
  app.post(
    '/api/alerts/read',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary: 'Mark some of the caller’s notifications read (all of them without ids).',
        body: alertReadBodySchema.strict(),
        response: { 200: alertInboxSchema, ...signedInErrors },
      },
    },
    async (request) => alerts.markRead(callerOf(request), request.body.ids),
  );
  app.get(
    '/api/alerts/rules',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary:
          "The caller's own alert rules: budgets (the bill so far above an amount) and high-use days, each on one meter.",
        response: { 200: alertRuleListSchema, ...signedInErrors },
      },
    },
    async (request) => ({ items: await alerts.ownRules(callerOf(request)) }),
  );
  app.post(
    '/api/alerts/rules',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary:
          'Add a rule of the caller’s own on a meter they can see: this bill so far above an amount (billAbove), a day above N kWh (dailyAbove). Only the caller sees it and is told.',
        body: ownAlertRuleBodySchema.strict(),
        response: { 201: alertRuleSchema, ...signedInErrors, 404: errorBodySchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await alerts.addOwnRule(callerOf(request), request.body)),
  );
  app.put(
    '/api/alerts/rules/:id',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary: 'Change the threshold of one of the caller’s own rules.',
        params: idParamsSchema,
        body: ownAlertRuleUpdateSchema.strict(),
        response: { 200: alertRuleSchema, ...signedInErrors, 404: errorBodySchema },
      },
    },
    async (request) => alerts.updateOwnRule(callerOf(request), request.params.id, request.body.threshold),
  );
  app.delete(
    '/api/alerts/rules/:id',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary: 'Remove one of the caller’s own rules (its alerts go with it).',
        params: idParamsSchema,
        response: { 204: z.null(), ...signedInErrors, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      await alerts.removeOwnRule(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/api/alerts/preferences',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary: 'How the caller hears of each kind of alert: in the app, by e-mail.',
        response: { 200: alertPreferencesSchema, ...signedInErrors },
      },
    },
    async (request) => alerts.preferences(callerOf(request)),
  );
  app.put(
    '/api/alerts/preferences',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary: 'Change how the caller hears of some kinds of alert.',
        body: alertPreferencesBodySchema.strict(),
        response: { 200: alertPreferencesSchema, ...signedInErrors },
      },
    },
    async (request) => alerts.setPreferences(callerOf(request), request.body.items),
  );
};
