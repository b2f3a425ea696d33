import {
  adminLocationSchema,
  locationListSchema,
  locationMetersSchema,
  type AdminDevice,
  type AdminLocation,
  type CreateLocationBody,
  type LocationList,
  type LocationListQuery,
  type UpdateLocationBody,
} from '@cm/contracts/admin.ts';
import { adminApi } from '../admin-api.ts';

/** Locations: list, create, edit, archive or restore, and the meters at one. */
const locationsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
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
  }),
});

export const {
  useListLocationsQuery,
  useCreateLocationMutation,
  useUpdateLocationMutation,
  useSetLocationArchivedMutation,
  useGetLocationMetersQuery,
} = locationsApi;
