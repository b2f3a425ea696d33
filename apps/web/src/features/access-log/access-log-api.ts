import type { AccessLog } from '@cm/contracts/access-log.ts';
import { api } from '@/lib/api.ts';

// The schema (and zod) load with the first answer, keeping them out of the start-up bundle.
const loadSchemas = () => import('@cm/contracts/access-log.ts');

/** "Who read my data": a meter's log, a page at a time (GET /api/CheckMeter/WhoReadMyData). */
const accessLogApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAccessLog: build.query<AccessLog, { meterNumber: string; page: number; pageSize: number }>({
      query: (params) => ({ url: '/api/CheckMeter/WhoReadMyData', params }),
      transformResponse: async (raw: unknown) => (await loadSchemas()).accessLogSchema.parse(raw),
    }),
  }),
});

export const { useGetAccessLogQuery } = accessLogApi;

/** The whole log as CSV. */
export const accessLogCsvUrl = (meterNumber: string) =>
  `/api/CheckMeter/WhoReadMyData.csv?${new URLSearchParams({ meterNumber }).toString()}`;
