import { MAX_PAGE_SIZE } from '@cm/contracts/admin.ts';
import { useMemo } from 'react';
import { useListLocationsQuery } from './locations/locations-api.ts';

/** A location as selects show it. */
export interface LocationOption {
  value: string;
  label: string;
  timeZone: string;
}

/**
 * Locations for selects (first MAX_PAGE_SIZE by name, archived ones included so an existing link
 * still shows its name). Enough for a site operator's list; a larger estate would need a
 * server-side search here.
 */
export function useLocationOptions(): { options: LocationOption[]; isLoading: boolean } {
  const { data, isLoading } = useListLocationsQuery({
    page: 1,
    pageSize: MAX_PAGE_SIZE,
    includeArchived: true,
  });
  const options = useMemo(
    () =>
      (data?.items ?? []).map((location) => ({
        value: String(location.id),
        label: location.publicName,
        timeZone: location.timeZone,
      })),
    [data],
  );
  return { options, isLoading };
}
