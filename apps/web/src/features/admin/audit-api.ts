import { auditListSchema, type AuditList, type AuditListQuery } from '@cm/contracts/admin.ts';
import { adminApi } from './admin-api.ts';

/** The audit log, filtered and paged. Every administrative change invalidates it. */
const auditApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    listAudit: build.query<AuditList, AuditListQuery>({
      query: (args) => ({
        url: '/api/admin/audit',
        params: { ...args, targetType: args.targetType || undefined, targetId: args.targetId || undefined },
      }),
      transformResponse: (raw: unknown) => auditListSchema.parse(raw),
      providesTags: ['AdminAudit'],
    }),
  }),
});

export const { useListAuditQuery } = auditApi;
