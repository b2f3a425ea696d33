import type { Suggestion } from '@cm/contracts/bookmarks.ts';
import type { Granularity, LocationReadings, MeterInfo } from '@cm/contracts/check.ts';
import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { api } from '@/lib/api.ts';
import type { HttpError } from '@/lib/http-client.ts';

// Schemas (zod) load with their first answer, as the shell's endpoints do: an empty check page
// evaluates none of them (the contract's constants it needs are in check-limits.ts).
const loadBookmarkSchemas = () => import('@cm/contracts/bookmarks.ts');
const loadCheckParsers = () => import('./parse-readings.ts');

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

/** A readings request, parameters named as the API names them. */
export interface ReadingsArgs {
  name: string;
  From: string;
  To: string;
  meterInd?: number;
  granularity: Granularity;
}

/** Check page endpoints, injected into the app's one API. */
export const checkApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMeterInfo: build.query<MeterInfo, string>({
      query: (meterNumber) => ({ url: '/api/CheckMeter/GetMeterInfo', params: { meterNumber } }),
      transformResponse: async (raw: unknown) => (await loadCheckParsers()).parseMeterInfo(raw),
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
        },
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
    searchCheckTargets: build.query<Suggestion[], string>({
      query: (q) => ({ url: '/api/search', params: { q } }),
      transformResponse: async (raw: unknown) =>
        (await loadBookmarkSchemas()).searchResultSchema.parse(raw).results,
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useGetMeterInfoQuery, useGetLocationReadingsQuery, useSearchCheckTargetsQuery } = checkApi;

/** What the page needs from a failed call: its status and the parameter the server blamed. */
export interface CallFailure {
  status: number | 'NETWORK_ERROR' | 'ABORTED' | 'PARSE_ERROR' | 'UNKNOWN';
  message: string | null;
  param: string | null;
}

function isHttpError(error: unknown): error is HttpError {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    'body' in error &&
    'isSessionLoss' in error
  );
}

/** Reads an RTK Query error (ours is always an HttpError; anything else is unknown). */
export function toCallFailure(
  error: HttpError | FetchBaseQueryError | SerializedError | undefined,
): CallFailure | null {
  if (error === undefined) return null;
  if (isHttpError(error))
    return { status: error.status, message: error.body?.message ?? null, param: error.body?.param ?? null };
  return { status: 'UNKNOWN', message: null, param: null };
}
