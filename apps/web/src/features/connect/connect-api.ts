import type { AllowConsentBody, ConnectGrant, ConsentDone, ConsentRequest } from '@cm/contracts/connect.ts';
import { api } from '@/lib/api.ts';

// The schemas (and zod) load with the first answer, keeping them out of the start-up bundle.
const loadSchemas = () => import('@cm/contracts/connect.ts');

/** Connect My Data for the customer: the consent page's calls and the connected apps (issue 37). */
const connectApi = api.enhanceEndpoints({ addTagTypes: ['ConnectGrant'] }).injectEndpoints({
  endpoints: (build) => ({
    getConsentRequest: build.query<ConsentRequest, string>({
      query: (uid) => ({ url: `/api/connect/consent/${encodeURIComponent(uid)}` }),
      transformResponse: async (raw: unknown) => (await loadSchemas()).consentRequestSchema.parse(raw),
    }),
    allowConsent: build.mutation<ConsentDone, { uid: string; body: AllowConsentBody }>({
      query: ({ uid, body }) => ({
        url: `/api/connect/consent/${encodeURIComponent(uid)}/allow`,
        method: 'POST',
        body,
      }),
      transformResponse: async (raw: unknown) => (await loadSchemas()).consentDoneSchema.parse(raw),
      invalidatesTags: ['ConnectGrant'],
    }),
    refuseConsent: build.mutation<ConsentDone, string>({
      query: (uid) => ({ url: `/api/connect/consent/${encodeURIComponent(uid)}/refuse`, method: 'POST' }),
      transformResponse: async (raw: unknown) => (await loadSchemas()).consentDoneSchema.parse(raw),
    }),
    listGrants: build.query<ConnectGrant[], void>({
      query: () => ({ url: '/api/connect/grants' }),
      transformResponse: async (raw: unknown) =>
        (await loadSchemas()).connectGrantListSchema.parse(raw).items,
      providesTags: ['ConnectGrant'],
    }),
    revokeGrant: build.mutation<null, number>({
      query: (id) => ({ url: `/api/connect/grants/${id}`, method: 'DELETE' }),
      invalidatesTags: ['ConnectGrant'],
    }),
  }),
});

export const {
  useGetConsentRequestQuery,
  useAllowConsentMutation,
  useRefuseConsentMutation,
  useListGrantsQuery,
  useRevokeGrantMutation,
} = connectApi;
