import {
  createdImportMetersSchema,
  importJobListSchema,
  importJobSchema,
  importMappingListSchema,
  importPreviewSchema,
  type CreatedImportMeters,
  type CreateImportMetersBody,
  type ImportJob,
  type ImportPreview,
  type ImportSource,
  type StartImportBody,
} from '@cm/contracts/import-jobs.ts';
import { adminApi } from '../admin-api.ts';

/** Imports as jobs and the saved column mappings (the upload itself goes through upload.ts, for its progress). */
export const importsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    listImportJobs: build.query<ImportJob[], void>({
      query: () => '/api/admin/imports/jobs',
      transformResponse: (raw: unknown) => importJobListSchema.parse(raw).items,
      providesTags: ['ImportJob'],
    }),
    getImportJob: build.query<ImportJob, string>({
      query: (id) => `/api/admin/imports/jobs/${encodeURIComponent(id)}`,
      transformResponse: (raw: unknown) => importJobSchema.parse(raw),
      providesTags: ['ImportJob'],
    }),
    previewImport: build.mutation<ImportPreview, { id: string; source: ImportSource }>({
      query: ({ id, source }) => ({
        url: `/api/admin/imports/jobs/${encodeURIComponent(id)}/preview`,
        method: 'POST',
        body: source,
      }),
      transformResponse: (raw: unknown) => importPreviewSchema.parse(raw),
    }),
    createImportMeters: build.mutation<CreatedImportMeters, { id: string; body: CreateImportMetersBody }>({
      query: ({ id, body }) => ({
        url: `/api/admin/imports/jobs/${encodeURIComponent(id)}/meters`,
        method: 'POST',
        body,
      }),
      transformResponse: (raw: unknown) => createdImportMetersSchema.parse(raw),
      invalidatesTags: ['AdminDevice', 'AdminLocation', 'AdminAudit'],
    }),
    startImport: build.mutation<ImportJob, { id: string; body: StartImportBody }>({
      query: ({ id, body }) => ({
        url: `/api/admin/imports/jobs/${encodeURIComponent(id)}/start`,
        method: 'POST',
        body,
      }),
      transformResponse: (raw: unknown) => importJobSchema.parse(raw),
      invalidatesTags: ['ImportJob', 'ImportMapping', 'AdminAudit'],
    }),
    cancelImport: build.mutation<ImportJob, string>({
      query: (id) => ({ url: `/api/admin/imports/jobs/${encodeURIComponent(id)}/cancel`, method: 'POST' }),
      transformResponse: (raw: unknown) => importJobSchema.parse(raw),
      invalidatesTags: ['ImportJob'],
    }),
    listImportMappings: build.query<ReturnType<typeof importMappingListSchema.parse>['items'], void>({
      query: () => '/api/admin/imports/mappings',
      transformResponse: (raw: unknown) => importMappingListSchema.parse(raw).items,
      providesTags: ['ImportMapping'],
    }),
  }),
});

export const {
  useListImportJobsQuery,
  useLazyGetImportJobQuery,
  usePreviewImportMutation,
  useCreateImportMetersMutation,
  useStartImportMutation,
  useCancelImportMutation,
  useListImportMappingsQuery,
} = importsApi;
