import type { AlertInbox, AlertPreferences, AlertRule, OwnAlertRuleBody } from '@cm/contracts/alerts.ts';
import type { Language } from '@cm/contracts/languages.ts';
import { api } from './api.ts';

// The schemas (and zod) load with the first answer, keeping them out of the start-up bundle.
const loadSchemas = () => import('@cm/contracts/alerts.ts');

/** How often the bell asks for new alerts while a page is open. */
export const ALERTS_POLL_MS = 60_000;

/** The caller's alert inbox (the bell) and how it wants to hear of alerts. */
export const alertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAlerts: build.query<AlertInbox, void>({
      query: () => '/api/alerts',
      transformResponse: async (raw: unknown) => (await loadSchemas()).alertInboxSchema.parse(raw),
      providesTags: ['Alerts'],
    }),
    markAlertsRead: build.mutation<AlertInbox, number[] | undefined>({
      query: (ids) => ({ url: '/api/alerts/read', method: 'POST', body: ids ? { ids } : {} }),
      transformResponse: async (raw: unknown) => (await loadSchemas()).alertInboxSchema.parse(raw),
      async onQueryStarted(_, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(alertsApi.util.upsertQueryData('getAlerts', undefined, data));
      },
    }),
    getAlertPreferences: build.query<AlertPreferences, void>({
      query: () => '/api/alerts/preferences',
      transformResponse: async (raw: unknown) => (await loadSchemas()).alertPreferencesSchema.parse(raw),
    }),
    setAlertPreferences: build.mutation<AlertPreferences, AlertPreferences['items']>({
      query: (items) => ({ url: '/api/alerts/preferences', method: 'PUT', body: { items } }),
      transformResponse: async (raw: unknown) => (await loadSchemas()).alertPreferencesSchema.parse(raw),
      async onQueryStarted(_, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(alertsApi.util.upsertQueryData('getAlertPreferences', undefined, data));
      },
    }),
    /** The caller's own rules: budgets and high-use days on meters they can see (issue 34). */
    getOwnAlertRules: build.query<AlertRule[], void>({
      query: () => '/api/alerts/rules',
      transformResponse: async (raw: unknown) => (await loadSchemas()).alertRuleListSchema.parse(raw).items,
      providesTags: ['OwnAlertRules'],
    }),
    addOwnAlertRule: build.mutation<AlertRule, OwnAlertRuleBody>({
      query: (body) => ({ url: '/api/alerts/rules', method: 'POST', body }),
      invalidatesTags: ['OwnAlertRules'],
    }),
    setOwnAlertThreshold: build.mutation<AlertRule, { id: number; threshold: number }>({
      query: ({ id, threshold }) => ({ url: `/api/alerts/rules/${id}`, method: 'PUT', body: { threshold } }),
      invalidatesTags: ['OwnAlertRules'],
    }),
    removeOwnAlertRule: build.mutation<null, number>({
      query: (id) => ({ url: `/api/alerts/rules/${id}`, method: 'DELETE' }),
      invalidatesTags: ['OwnAlertRules'],
    }),
    /** The language the person reads CM in: the server writes their alert e-mails in it. */
    setLanguage: build.mutation<null, Language>({
      query: (language) => ({ url: '/api/auth/language', method: 'PUT', body: { language } }),
      async onQueryStarted(language, { dispatch, queryFulfilled }) {
        if (await queryFulfilled.then(() => true).catch(() => false)) {
          dispatch(
            alertsApi.util.updateQueryData('getAlertPreferences', undefined, (preferences) => {
              preferences.emailLanguage = language;
            }),
          );
        }
      },
    }),
  }),
});

export const {
  useSetLanguageMutation,
  useGetAlertsQuery,
  useMarkAlertsReadMutation,
  useGetAlertPreferencesQuery,
  useSetAlertPreferencesMutation,
  useGetOwnAlertRulesQuery,
  useAddOwnAlertRuleMutation,
  useSetOwnAlertThresholdMutation,
  useRemoveOwnAlertRuleMutation,
} = alertsApi;
