import {
  locationTariffsSchema,
  tariffSchema,
  type LocationTariffs,
  type Tariff,
  type TariffBody,
} from '@cm/contracts/tariffs.ts';
import { adminApi } from '../admin-api.ts';

/** A location's tariffs: list, add a version, withdraw one. */
const tariffsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
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
  }),
});

export const { useGetLocationTariffsQuery, useAddTariffMutation, useWithdrawTariffMutation } = tariffsApi;
