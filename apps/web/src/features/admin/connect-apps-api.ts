import {
  connectAppListSchema,
  connectGrantListSchema,
  type ConnectGrant,
  connectAppSchema,
  createdConnectAppSchema,
  type ConnectApp,
  type CreateConnectAppBody,
  type CreatedConnectApp,
} from '@cm/contracts/connect.ts';
import { adminApi } from './admin-api.ts';

/** Third-party apps of Connect My Data: list, register (the secret is in this one answer only), suspend, resume, remove. */
const connectAppsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    listConnectApps: build.query<ConnectApp[], void>({
      query: () => ({ url: '/api/admin/connect/apps' }),
      transformResponse: (raw: unknown) => connectAppListSchema.parse(raw).items,
      providesTags: ['AdminConnectApp'],
    }),
    createConnectApp: build.mutation<CreatedConnectApp, CreateConnectAppBody>({
      query: (body) => ({ url: '/api/admin/connect/apps', method: 'POST', body }),
      transformResponse: (raw: unknown) => createdConnectAppSchema.parse(raw),
      invalidatesTags: ['AdminConnectApp', 'AdminAudit'],
    }),
    setConnectAppState: build.mutation<ConnectApp, { id: number; change: 'suspend' | 'resume' }>({
      query: ({ id, change }) => ({ url: `/api/admin/connect/apps/${id}/${change}`, method: 'POST' }),
      transformResponse: (raw: unknown) => connectAppSchema.parse(raw),
      invalidatesTags: ['AdminConnectApp', 'AdminAudit'],
    }),
    listConnectGrants: build.query<ConnectGrant[], void>({
      query: () => ({ url: '/api/admin/connect/grants' }),
      transformResponse: (raw: unknown) => connectGrantListSchema.parse(raw).items,
      providesTags: ['AdminConnectApp'],
    }),
    revokeConnectGrant: build.mutation<null, number>({
      query: (id) => ({ url: `/api/admin/connect/grants/${id}`, method: 'DELETE' }),
      invalidatesTags: ['AdminConnectApp', 'AdminAudit'],
    }),
    removeConnectApp: build.mutation<null, number>({
      query: (id) => ({ url: `/api/admin/connect/apps/${id}`, method: 'DELETE' }),
      invalidatesTags: ['AdminConnectApp', 'AdminAudit'],
    }),
  }),
});

export const {
  useListConnectAppsQuery,
  useCreateConnectAppMutation,
  useSetConnectAppStateMutation,
  useRemoveConnectAppMutation,
  useListConnectGrantsQuery,
  useRevokeConnectGrantMutation,
} = connectAppsApi;
