import {
  adminApiKeySchema,
  apiKeyListSchema,
  createdApiKeySchema,
  type AdminApiKey,
  type CreateApiKeyBody,
  type CreatedApiKey,
} from '@cm/contracts/admin.ts';
import { adminApi } from './admin-api.ts';

/** API keys: list, create (the key is in this one answer only), revoke. */
const apiKeysApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    listApiKeys: build.query<AdminApiKey[], void>({
      query: () => ({ url: '/api/admin/api-keys' }),
      transformResponse: (raw: unknown) => apiKeyListSchema.parse(raw).items,
      providesTags: ['AdminApiKey'],
    }),
    createApiKey: build.mutation<CreatedApiKey, CreateApiKeyBody>({
      query: (body) => ({ url: '/api/admin/api-keys', method: 'POST', body }),
      transformResponse: (raw: unknown) => createdApiKeySchema.parse(raw),
      invalidatesTags: ['AdminApiKey', 'AdminAudit'],
    }),
    revokeApiKey: build.mutation<AdminApiKey, number>({
      query: (id) => ({ url: `/api/admin/api-keys/${id}/revoke`, method: 'POST' }),
      transformResponse: (raw: unknown) => adminApiKeySchema.parse(raw),
      invalidatesTags: ['AdminApiKey', 'AdminAudit'],
    }),
  }),
});

export const { useListApiKeysQuery, useCreateApiKeyMutation, useRevokeApiKeyMutation } = apiKeysApi;
