import {
  adminApiKeySchema,
  adminDeviceSchema,
  adminLocationSchema,
  adminUserSchema,
  apiKeyListSchema,
  auditListSchema,
  createdApiKeySchema,
  deviceListSchema,
  deviceTreeSchema,
  exchangeResultSchema,
  locationListSchema,
  locationMetersSchema,
  resetPasswordResultSchema,
  userListSchema,
  type AdminApiKey,
  type AdminDevice,
  type AdminLocation,
  type AdminUser,
  type AuditList,
  type AuditListQuery,
  type CreateApiKeyBody,
  type CreateDeviceBody,
  type CreateLocationBody,
  type CreateMeterBody,
  type CreateUserBody,
  type CreatedApiKey,
  type DeviceList,
  type DeviceListQuery,
  type DeviceTree,
  type ExchangeMeterBody,
  type ExchangeResult,
  type LocationList,
  type LocationListQuery,
  type ResetPasswordResult,
  type UpdateDeviceBody,
  type UpdateLocationBody,
  type UpdateMeterBody,
  type UpdateUserBody,
  type UserList,
  type UserListQuery,
} from '@cm/contracts/admin.ts';
import {
  importJobListSchema,
  importJobSchema,
  importMappingListSchema,
  importPreviewSchema,
  type ImportJob,
  type ImportPreview,
  type ImportSource,
  type StartImportBody,
} from '@cm/contracts/import-jobs.ts';
import {
  locationTariffsSchema,
  tariffSchema,
  type LocationTariffs,
  type Tariff,
  type TariffBody,
} from '@cm/contracts/tariffs.ts';
import {
  alertRuleListSchema,
  alertRuleSchema,
  createdWebhookSchema,
  webhookDeliverySchema,
  webhookSchema,
  type AlertRule,
  type AlertRuleBody,
  type Webhook,
  type WebhookDelivery,
} from '@cm/contracts/alerts.ts';
import { z } from 'zod';
import { api } from '@/lib/api.ts';

/*
 * Administration endpoints, injected into the app's one API. Answers are parsed with the
 * contract's schemas (this chunk loads only for administrators, so zod's weight is paid there).
 * Lists are tagged per resource; every change invalidates the lists it can affect.
 */

const adminApi = api
  .enhanceEndpoints({
    addTagTypes: [
      'AdminUser',
      'AdminLocation',
      'AdminTariff',
      'AdminAlertRule',
      'AdminWebhook',
      'AdminDevice',
      'AdminApiKey',
      'AdminAudit',
      'ImportJob',
      'ImportMapping',
    ],
  })
  .injectEndpoints({
    endpoints: (build) => ({
      // ---- Users ----
      listUsers: build.query<UserList, UserListQuery>({
        query: (args) => ({ url: '/api/admin/users', params: { ...args, search: args.search || undefined } }),
        transformResponse: (raw: unknown) => userListSchema.parse(raw),
        providesTags: ['AdminUser'],
      }),
      createUser: build.mutation<AdminUser, CreateUserBody>({
        query: (body) => ({ url: '/api/admin/users', method: 'POST', body }),
        transformResponse: (raw: unknown) => adminUserSchema.parse(raw),
        invalidatesTags: ['AdminUser', 'AdminAudit'],
      }),
      updateUser: build.mutation<AdminUser, { id: number; body: UpdateUserBody }>({
        query: ({ id, body }) => ({ url: `/api/admin/users/${id}`, method: 'PATCH', body }),
        transformResponse: (raw: unknown) => adminUserSchema.parse(raw),
        invalidatesTags: ['AdminUser', 'AdminAudit'],
      }),
      setUserDisabled: build.mutation<AdminUser, { id: number; isDisabled: boolean }>({
        query: ({ id, isDisabled }) => ({
          url: `/api/admin/users/${id}/${isDisabled ? 'disable' : 'enable'}`,
          method: 'POST',
        }),
        transformResponse: (raw: unknown) => adminUserSchema.parse(raw),
        invalidatesTags: ['AdminUser', 'AdminAudit'],
      }),
      resetPassword: build.mutation<ResetPasswordResult, number>({
        query: (id) => ({ url: `/api/admin/users/${id}/reset-password`, method: 'POST', body: {} }),
        transformResponse: (raw: unknown) => resetPasswordResultSchema.parse(raw),
        invalidatesTags: ['AdminUser', 'AdminAudit'],
      }),

      // ---- Locations ----
      listLocations: build.query<LocationList, LocationListQuery>({
        query: (args) => ({
          url: '/api/admin/locations',
          params: { ...args, search: args.search || undefined },
        }),
        transformResponse: (raw: unknown) => locationListSchema.parse(raw),
        providesTags: ['AdminLocation'],
      }),
      createLocation: build.mutation<AdminLocation, CreateLocationBody>({
        query: (body) => ({ url: '/api/admin/locations', method: 'POST', body }),
        transformResponse: (raw: unknown) => adminLocationSchema.parse(raw),
        invalidatesTags: ['AdminLocation', 'AdminAudit'],
      }),
      updateLocation: build.mutation<AdminLocation, { id: number; body: UpdateLocationBody }>({
        query: ({ id, body }) => ({ url: `/api/admin/locations/${id}`, method: 'PATCH', body }),
        transformResponse: (raw: unknown) => adminLocationSchema.parse(raw),
        invalidatesTags: ['AdminLocation', 'AdminDevice', 'AdminAudit'],
      }),
      setLocationArchived: build.mutation<AdminLocation, { id: number; isArchived: boolean }>({
        query: ({ id, isArchived }) => ({
          url: `/api/admin/locations/${id}/${isArchived ? 'archive' : 'restore'}`,
          method: 'POST',
        }),
        transformResponse: (raw: unknown) => adminLocationSchema.parse(raw),
        invalidatesTags: ['AdminLocation', 'AdminAudit'],
      }),
      getLocationMeters: build.query<AdminDevice[], number>({
        query: (id) => ({ url: `/api/admin/locations/${id}/meters` }),
        transformResponse: (raw: unknown) => locationMetersSchema.parse(raw).items,
        providesTags: ['AdminDevice'],
      }),
      getLocationTariffs: build.query<LocationTariffs, number>({
        query: (id) => ({ url: `/api/admin/locations/${id}/tariffs` }),
        transformResponse: (raw: unknown) => locationTariffsSchema.parse(raw),
        providesTags: ['AdminTariff'],
      }),
      addTariff: build.mutation<Tariff, { locationId: number; body: TariffBody }>({
        query: ({ locationId, body }) => ({
          url: `/api/admin/locations/${locationId}/tariffs`,
          method: 'POST',
          body,
        }),
        transformResponse: (raw: unknown) => tariffSchema.parse(raw),
        invalidatesTags: ['AdminTariff', 'AdminAudit'],
      }),
      withdrawTariff: build.mutation<void, { locationId: number; tariffId: number }>({
        query: ({ locationId, tariffId }) => ({
          url: `/api/admin/locations/${locationId}/tariffs/${tariffId}`,
          method: 'DELETE',
        }),
        invalidatesTags: ['AdminTariff', 'AdminAudit'],
      }),
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
      getDeviceTree: build.query<DeviceTree, number>({
        query: (id) => ({ url: `/api/admin/locations/${id}/devices/tree` }),
        transformResponse: (raw: unknown) => deviceTreeSchema.parse(raw),
        providesTags: ['AdminDevice'],
      }),

      // ---- Devices and meters ----
      listDevices: build.query<DeviceList, DeviceListQuery>({
        query: (args) => ({
          url: '/api/admin/devices',
          params: { ...args, search: args.search || undefined },
        }),
        transformResponse: (raw: unknown) => deviceListSchema.parse(raw),
        providesTags: ['AdminDevice'],
      }),
      createDevice: build.mutation<AdminDevice, CreateDeviceBody>({
        query: (body) => ({ url: '/api/admin/devices', method: 'POST', body }),
        transformResponse: (raw: unknown) => adminDeviceSchema.parse(raw),
        invalidatesTags: ['AdminDevice', 'AdminAudit'],
      }),
      updateDevice: build.mutation<AdminDevice, { id: number; body: UpdateDeviceBody }>({
        query: ({ id, body }) => ({ url: `/api/admin/devices/${id}`, method: 'PATCH', body }),
        transformResponse: (raw: unknown) => adminDeviceSchema.parse(raw),
        invalidatesTags: ['AdminDevice', 'AdminAudit'],
      }),
      createMeter: build.mutation<AdminDevice, CreateMeterBody>({
        query: (body) => ({ url: '/api/admin/meters', method: 'POST', body }),
        transformResponse: (raw: unknown) => adminDeviceSchema.parse(raw),
        invalidatesTags: ['AdminDevice', 'AdminLocation', 'AdminAudit'],
      }),
      updateMeter: build.mutation<AdminDevice, { meterNumber: string; body: UpdateMeterBody }>({
        query: ({ meterNumber, body }) => ({
          url: `/api/admin/meters/${encodeURIComponent(meterNumber)}`,
          method: 'PATCH',
          body,
        }),
        transformResponse: (raw: unknown) => adminDeviceSchema.parse(raw),
        invalidatesTags: ['AdminDevice', 'AdminAudit'],
      }),
      moveMeter: build.mutation<AdminDevice, { meterNumber: string; cubeId: number | null }>({
        query: ({ meterNumber, cubeId }) => ({
          url: `/api/admin/meters/${encodeURIComponent(meterNumber)}/move`,
          method: 'POST',
          body: { cubeId },
        }),
        transformResponse: (raw: unknown) => adminDeviceSchema.parse(raw),
        invalidatesTags: ['AdminDevice', 'AdminAudit'],
      }),
      exchangeMeter: build.mutation<ExchangeResult, { meterNumber: string; body: ExchangeMeterBody }>({
        query: ({ meterNumber, body }) => ({
          url: `/api/admin/meters/${encodeURIComponent(meterNumber)}/exchange`,
          method: 'POST',
          body,
        }),
        transformResponse: (raw: unknown) => exchangeResultSchema.parse(raw),
        invalidatesTags: ['AdminDevice', 'AdminLocation', 'AdminAudit'],
      }),

      // ---- API keys ----
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

      // ---- Audit ----
      listAudit: build.query<AuditList, AuditListQuery>({
        query: (args) => ({
          url: '/api/admin/audit',
          params: { ...args, targetType: args.targetType || undefined, targetId: args.targetId || undefined },
        }),
        transformResponse: (raw: unknown) => auditListSchema.parse(raw),
        providesTags: ['AdminAudit'],
      }),

      // ---- Imports as jobs (the upload itself goes through upload.ts, for its progress) ----
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
  useListUsersQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useSetUserDisabledMutation,
  useResetPasswordMutation,
  useListLocationsQuery,
  useCreateLocationMutation,
  useUpdateLocationMutation,
  useSetLocationArchivedMutation,
  useGetLocationMetersQuery,
  useGetLocationTariffsQuery,
  useAddTariffMutation,
  useWithdrawTariffMutation,
  useListAlertRulesQuery,
  useAddAlertRuleMutation,
  useRemoveAlertRuleMutation,
  useListWebhooksQuery,
  useAddWebhookMutation,
  useRemoveWebhookMutation,
  useListWebhookDeliveriesQuery,
  useGetDeviceTreeQuery,
  useListDevicesQuery,
  useCreateDeviceMutation,
  useUpdateDeviceMutation,
  useCreateMeterMutation,
  useUpdateMeterMutation,
  useMoveMeterMutation,
  useExchangeMeterMutation,
  useListApiKeysQuery,
  useCreateApiKeyMutation,
  useRevokeApiKeyMutation,
  useListAuditQuery,
  useListImportJobsQuery,
  useGetImportJobQuery,
  usePreviewImportMutation,
  useStartImportMutation,
  useCancelImportMutation,
  useListImportMappingsQuery,
} = adminApi;
