// The directory's meters and locations as other modules see them (camelCase domain types); the
// rows they are read from stay in meters.queries.ts.

/** A location or a meter in a list or a search, as the caller may see it. */
export interface DirectoryItem {
  kind: 'location' | 'meter';
  key: string;
  title: string;
  /** A location's address; a meter's location. */
  subtitle: string;
  /** A meter's name ('' when unnamed, and for locations). */
  label: string;
}

/** A meter and its location's zone, for an export. */
export interface ExportMeter {
  id: number;
  meterNumber: string;
  multiplier: number;
  intervalMinutes: number;
  registerDigits: number;
  locationName: string;
  timeZone: string;
}

/** A meter as a device batch is checked against it. */
export interface IngestMeter {
  id: number;
  meterNumber: string;
  registerDigits: number;
  installedAt: Date;
  removedAt: Date | null;
  /** Stored channel numbers the meter has (1 import, 2 export). */
  channels: number[];
}
