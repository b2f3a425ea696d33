import type {
  LocationReadings,
  LocationReadingsQuery,
  MeterInfo,
  ReadingCorrections,
  ReadingCorrectionsQuery,
} from '@cm/contracts/check.ts';
import type { Baseload, BaseloadQuery } from '@cm/contracts/baseload.ts';
import type { MonthlyPeaks, MonthlyPeaksQuery } from '@cm/contracts/demand.ts';
import type { CleanestHours } from '@cm/contracts/market-series.ts';
import type { LocationTariffs } from '@cm/contracts/tariffs.ts';
import { api } from '@/lib/api.ts';

// Schemas (zod) load with their first answer, as the shell's endpoints do: an empty check page
// evaluates none of them (the contract's constants it needs are in check-limits.ts).
const loadCheckParsers = () => import('./model/parse-readings.ts');

/** Starts loading the check answers' schemas; the page calls it as it asks for a meter or location. */
export function preloadCheckParsers(): void {
  void loadCheckParsers();
}

/** Performance marks the benchmark reads: answer received → chart drawn → table (the rest of the section) rendered. */
export const perfMarks = {
  response: 'cm-check:response',
  parsed: 'cm-check:parsed',
  drawn: 'cm-check:drawn',
  table: 'cm-check:table',
} as const;

/** A readings request: the contract's query, with the granularity the page always names. */
export type ReadingsArgs = Pick<LocationReadingsQuery, 'name' | 'From' | 'To' | 'meterInd' | 'ProjectTo'> &
  Required<Pick<LocationReadingsQuery, 'granularity'>>;

/** Check page endpoints, injected into the app's one API. */
export const checkApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMeterInfo: build.query<MeterInfo, string>({
      query: (meterNumber) => ({ url: '/api/CheckMeter/GetMeterInfo', params: { meterNumber } }),
      transformResponse: async (raw: unknown) => (await loadCheckParsers()).parseMeterInfo(raw),
    }),
    /** The location's tariff versions: the prices its bills use (issue 34.13). */
    getTariffs: build.query<LocationTariffs, string>({
      query: (name) => ({ url: '/api/CheckMeter/GetTariffs', params: { name } }),
      transformResponse: async (raw: unknown) =>
        (await import('@cm/contracts/tariffs.ts')).locationTariffsSchema.parse(raw),
    }),
    getLocationReadings: build.query<LocationReadings, ReadingsArgs>({
      query: (args) => ({
        url: '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName',
        params: {
          name: args.name,
          From: args.From,
          To: args.To,
          meterInd: args.meterInd,
          granularity: args.granularity,
          ProjectTo: args.ProjectTo,
        },
        // The same answer in a fraction of the bytes (contracts' binary-columns.ts).
        acceptsBinaryColumns: true,
      }),
      transformResponse: async (raw: unknown, _meta, args) => {
        performance.mark(perfMarks.response, { detail: { granularity: args.granularity } });
        const parsed = (await loadCheckParsers()).parseLocationReadings(raw);
        const points = parsed.meters.reduce((sum, meter) => sum + meter.series.t.length, 0);
        performance.mark(perfMarks.parsed, { detail: { granularity: args.granularity, points } });
        return parsed;
      },
      keepUnusedDataFor: 120,
      // A year of readings is 175k values: comparing old and new answers value by value costs more
      // than it saves (a new range is new data anyway).
      structuralSharing: false,
    }),
    getMonthlyPeaks: build.query<MonthlyPeaks, MonthlyPeaksQuery>({
      query: (params) => ({ url: '/api/CheckMeter/GetMonthlyPeaks', params }),
      transformResponse: async (raw: unknown) => (await loadCheckParsers()).parseMonthlyPeaks(raw),
    }),
    /** A meter's always-on power and night share, each against before (issue 34). */
    getBaseload: build.query<Baseload, BaseloadQuery>({
      query: (params) => ({ url: '/api/CheckMeter/GetBaseload', params }),
      transformResponse: async (raw: unknown) =>
        (await import('@cm/contracts/baseload.ts')).baseloadSchema.parse(raw),
    }),
    /** Tomorrow's carbon intensity at a location and its cleanest quarter of intervals (issue 36). */
    getCleanestHours: build.query<CleanestHours, string>({
      query: (name) => ({ url: '/api/CheckMeter/GetCleanestHours', params: { name } }),
      transformResponse: async (raw: unknown) =>
        (await import('@cm/contracts/market-series.ts')).cleanestHoursSchema.parse(raw),
    }),
    getReadingCorrections: build.query<ReadingCorrections, Required<ReadingCorrectionsQuery>>({
      query: (params) => ({ url: '/api/CheckMeter/GetReadingCorrections', params }),
      transformResponse: async (raw: unknown) => (await loadCheckParsers()).parseReadingCorrections(raw),
    }),
  }),
});

export const {
  useGetMeterInfoQuery,
  useGetLocationReadingsQuery,
  useGetMonthlyPeaksQuery,
  useGetReadingCorrectionsQuery,
  useGetTariffsQuery,
  useGetBaseloadQuery,
  useGetCleanestHoursQuery,
} = checkApi;
