/** What a readings file or batch is checked against, for one meter. */
export interface MeterFacts {
  id: number;
  meterNumber: string;
  multiplier: number;
  registerDigits: number;
  intervalMinutes: number;
  installedAtMs: number;
  removedAtMs: number | null;
  /** Stored channel numbers the meter has (1 import, 2 export). */
  channels: number[];
  /** The IANA zone of the meter's location: local times of a file are read in it by default. */
  timeZone: string;
  /** The public name of the meter's location. */
  locationName: string;
}
