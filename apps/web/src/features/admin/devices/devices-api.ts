import {
  adminDeviceSchema,
  deviceListSchema,
  deviceTreeSchema,
  exchangeResultSchema,
  type AdminDevice,
  type CreateDeviceBody,
  type CreateMeterBody,
  type DeviceList,
  type DeviceListQuery,
  type DeviceTree,
  type ExchangeMeterBody,
  type ExchangeResult,
  type UpdateDeviceBody,
  type UpdateMeterBody,
} from '@cm/contracts/admin.ts';
import { adminApi } from '../admin-api.ts';

/** Devices and meters: list, a location's tree, create, edit, move and exchange a meter. */
const devicesApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getDeviceTree: build.query<DeviceTree, number>({
      query: (id) => ({ url: `/api/admin/locations/${id}/devices/tree` }),
      transformResponse: (raw: unknown) => deviceTreeSchema.parse(raw),
      providesTags: ['AdminDevice'],
    }),
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
  }),
});

export const {
  useGetDeviceTreeQuery,
  useListDevicesQuery,
  useCreateDeviceMutation,
  useUpdateDeviceMutation,
  useCreateMeterMutation,
  useUpdateMeterMutation,
  useMoveMeterMutation,
  useExchangeMeterMutation,
} = devicesApi;
