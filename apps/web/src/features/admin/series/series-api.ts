import {
  carbonSeriesSchema,
  locationCarbonBodySchema,
  priceSeriesSchema,
  seriesStoredSchema,
  type CarbonSeries,
  type CarbonSeriesDraft,
  type PriceSeries,
  type PriceSeriesDraft,
  type SeriesStored,
} from '@cm/contracts/market-series.ts';
import { z } from 'zod';
import { adminApi } from '../admin-api.ts';

/** Which of the two kinds of series. */
export type SeriesKind = 'price' | 'carbon';

const csv = (text: string) => ({ contentType: 'text/csv', text });

/**
 * Price and carbon series: lists with their coverage, a file into a new series (created only when
 * the file is good) or an existing one, and the carbon series of a location.
 */
const seriesApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    listPriceSeries: build.query<PriceSeries[], void>({
      query: () => ({ url: '/api/admin/price-series' }),
      transformResponse: (raw: unknown) => z.array(priceSeriesSchema).parse(raw),
      providesTags: ['AdminSeries'],
    }),
    listCarbonSeries: build.query<CarbonSeries[], void>({
      query: () => ({ url: '/api/admin/carbon-series' }),
      transformResponse: (raw: unknown) => z.array(carbonSeriesSchema).parse(raw),
      providesTags: ['AdminSeries'],
    }),
    importNewPriceSeries: build.mutation<PriceSeries, { draft: PriceSeriesDraft; text: string }>({
      query: ({ draft, text }) => ({
        url: '/api/admin/price-series/import',
        method: 'POST',
        params: { ...draft },
        rawBody: csv(text),
      }),
      transformResponse: (raw: unknown) => priceSeriesSchema.parse(raw),
      invalidatesTags: ['AdminSeries', 'AdminAudit'],
    }),
    importNewCarbonSeries: build.mutation<CarbonSeries, { draft: CarbonSeriesDraft; text: string }>({
      query: ({ draft, text }) => ({
        url: '/api/admin/carbon-series/import',
        method: 'POST',
        params: { ...draft },
        rawBody: csv(text),
      }),
      transformResponse: (raw: unknown) => carbonSeriesSchema.parse(raw),
      invalidatesTags: ['AdminSeries', 'AdminAudit'],
    }),
    importSeriesFile: build.mutation<SeriesStored, { kind: SeriesKind; id: number; text: string }>({
      query: ({ kind, id, text }) => ({
        url: `/api/admin/${kind}-series/${id}/csv`,
        method: 'POST',
        rawBody: csv(text),
      }),
      transformResponse: (raw: unknown) => seriesStoredSchema.parse(raw),
      invalidatesTags: ['AdminSeries', 'AdminAudit'],
    }),
    getLocationCarbon: build.query<number | null, number>({
      query: (locationId) => ({ url: `/api/admin/locations/${locationId}/carbon-series` }),
      transformResponse: (raw: unknown) => locationCarbonBodySchema.parse(raw).seriesId,
      providesTags: ['AdminLocationCarbon'],
    }),
    setLocationCarbon: build.mutation<number | null, { locationId: number; seriesId: number | null }>({
      query: ({ locationId, seriesId }) => ({
        url: `/api/admin/locations/${locationId}/carbon-series`,
        method: 'PUT',
        body: { seriesId },
      }),
      transformResponse: (raw: unknown) => locationCarbonBodySchema.parse(raw).seriesId,
      invalidatesTags: ['AdminLocationCarbon', 'AdminAudit'],
    }),
  }),
});

export const {
  useListPriceSeriesQuery,
  useListCarbonSeriesQuery,
  useImportNewPriceSeriesMutation,
  useImportNewCarbonSeriesMutation,
  useImportSeriesFileMutation,
  useGetLocationCarbonQuery,
  useSetLocationCarbonMutation,
} = seriesApi;
