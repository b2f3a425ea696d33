import {
  createdWebhookSchema,
  webhookDeliverySchema,
  webhookSchema,
  type Webhook,
  type WebhookDelivery,
} from '@cm/contracts/alerts.ts';
import { z } from 'zod';
import { adminApi } from './admin-api.ts';

/** Webhooks: list, add (its secret is shown once), remove, and one's deliveries. */
const webhooksApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    listWebhooks: build.query<Webhook[], void>({
      query: () => ({ url: '/api/admin/webhooks' }),
      transformResponse: (raw: unknown) => z.object({ items: z.array(webhookSchema) }).parse(raw).items,
      providesTags: ['AdminWebhook'],
    }),
    addWebhook: build.mutation<{ webhook: Webhook; secret: string }, string>({
      query: (url) => ({ url: '/api/admin/webhooks', method: 'POST', body: { url } }),
      transformResponse: (raw: unknown) => createdWebhookSchema.parse(raw),
      invalidatesTags: ['AdminWebhook', 'AdminAudit'],
    }),
    removeWebhook: build.mutation<void, number>({
      query: (id) => ({ url: `/api/admin/webhooks/${id}`, method: 'DELETE' }),
      invalidatesTags: ['AdminWebhook', 'AdminAudit'],
    }),
    listWebhookDeliveries: build.query<WebhookDelivery[], number>({
      query: (id) => ({ url: `/api/admin/webhooks/${id}/deliveries` }),
      transformResponse: (raw: unknown) =>
        z.object({ items: z.array(webhookDeliverySchema) }).parse(raw).items,
      providesTags: ['AdminWebhook'],
    }),
  }),
});

export const {
  useListWebhooksQuery,
  useAddWebhookMutation,
  useRemoveWebhookMutation,
  useListWebhookDeliveriesQuery,
} = webhooksApi;
