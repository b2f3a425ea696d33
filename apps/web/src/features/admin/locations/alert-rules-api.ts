import {
  alertRuleListSchema,
  alertRuleSchema,
  type AlertRule,
  type AlertRuleBody,
} from '@cm/contracts/alerts.ts';
import { adminApi } from '../admin-api.ts';

/** A location's alert rules: list, add, remove. */
const alertRulesApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    listAlertRules: build.query<AlertRule[], number>({
      query: (locationId) => ({ url: `/api/admin/alert-rules?locationId=${locationId}` }),
      transformResponse: (raw: unknown) => alertRuleListSchema.parse(raw).items,
      providesTags: ['AdminAlertRule'],
    }),
    addAlertRule: build.mutation<AlertRule, AlertRuleBody>({
      query: (body) => ({ url: '/api/admin/alert-rules', method: 'POST', body }),
      transformResponse: (raw: unknown) => alertRuleSchema.parse(raw),
      invalidatesTags: ['AdminAlertRule', 'AdminAudit'],
    }),
    removeAlertRule: build.mutation<void, number>({
      query: (id) => ({ url: `/api/admin/alert-rules/${id}`, method: 'DELETE' }),
      invalidatesTags: ['AdminAlertRule', 'AdminAudit'],
    }),
  }),
});

export const { useListAlertRulesQuery, useAddAlertRuleMutation, useRemoveAlertRuleMutation } = alertRulesApi;
