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

/** A live location as the check page and tariffs read it. */
export interface DirectoryLocation {
  id: number;
  publicName: string;
  address: string;
  /** IANA zone of the location's days. */
  timeZone: string;
  /** Day of the month a billing period starts (null: the 1st). */
  billingDay: number | null;
}

/** A Cube or AccessPoint above a meter. */
export interface ParentDevice {
  id: number;
  serial: string;
  /** Device type (1 AccessPoint, 2 Cube). */
  type: number;
  status: string;
  priority: number;
  lastSeenAt: Date | null;
}

/** A meter that a location had at one indicator, with its location and its chain. */
export interface LocationMeter {
  /** The meter's device id (its readings' meter id). */
  id: number;
  meterNumber: string;
  label: string;
  mainSupply: boolean;
  meterInd: number;
  multiplier: number;
  unit: string;
  registerDigits: number;
  intervalMinutes: number;
  installedAt: Date;
  removedAt: Date | null;
  /** Stored channel numbers the meter has (1 import, 2 export). */
  channels: number[];
  /** Changed by every write to the meter's readings (what remembered answers are kept with). */
  readingsVersion: number;
  /** The newest UTC month written to of its registers and of its interval records. */
  lastRegisterMonth: Date | null;
  lastIntervalMonth: Date | null;
  /** The meter device's own status, priority and last contact. */
  status: string;
  priority: number;
  lastSeenAt: Date | null;
  location: DirectoryLocation;
  cube: ParentDevice | null;
  accessPoint: ParentDevice | null;
}

/** A current meter as alerts watch it: its location's zone, how to read it, and its chain's last contact. */
export interface AlertMeter {
  id: number;
  meterNumber: string;
  locationId: number;
  locationName: string;
  timeZone: string;
  billingDay: number | null;
  multiplier: number;
  registerDigits: number;
  intervalMinutes: number;
  readingsVersion: number;
  lastRegisterMonth: Date | null;
  lastIntervalMonth: Date | null;
  installedAt: Date;
  /** Data is expected from it: false when its device is inactive or its priority is Not Yet Open. */
  expectsData: boolean;
  /** Its Cube and AccessPoint when it has them: when they were last heard from. */
  cube: { lastSeenAt: Date | null } | null;
  accessPoint: { lastSeenAt: Date | null } | null;
}

/** A location by id (archived ones too), as an import that creates meters there reads it. */
export interface ImportLocation {
  id: number;
  publicName: string;
  timeZone: string;
  isArchived: boolean;
}
