import { DevicePriority, type DevicePriorityId, type DeviceStatus } from '@cm/contracts/enums.ts';
import type { LoadProfile, SolarArray } from './load-profile.ts';

/** Which demo client a location belongs to; `null` locations are seen by the administrator only. */
export type DemoClientKey = 'clientA' | 'clientB';

/** The one meter that plays each special case (documented where the plan builds it). */
export type SpecialRole = 'rollover' | 'gap' | 'exchange' | 'faulty' | 'inactive' | 'estimated';

export interface DemoMeterSpec {
  /** What is metered, for the reader of this table (not stored). */
  label: string;
  profile: LoadProfile;
  averageKw: number;
  /** Index of the Cube (within its location) the meter hangs under. */
  cube: number;
  priority: DevicePriorityId;
  multiplier?: number;
  registerDigits?: number;
  special?: SpecialRole;
  /** Rooftop solar behind the meter: it imports what the home uses beyond it and exports the rest. */
  solar?: SolarArray;
  /** The location's incoming supply: its other meters are sub-meters behind it. */
  mainSupply?: boolean;
}

export interface DemoLocationSpec {
  publicName: string;
  address: string;
  timeZone: string;
  client: DemoClientKey | null;
  cubes: number;
  /** A Cube that stopped reporting about 30 hours before `now`: its meters show as late. */
  staleCube?: number;
  /** meterInd is the position in this list, from 1. */
  meters: DemoMeterSpec[];
}

const { New, High, Medium, NotYetOpen } = DevicePriority;

/**
 * The demo site: five locations in three IANA zones (Lisbon, Berlin, New York: each has its DST switch
 * on different dates, and Lisbon is UTC+0 in winter). Client A sees the first two, client B the next
 * two, and the fifth is visible to the administrator only. 24 meter positions; one of them has its
 * meter exchanged, so there are 25 meters.
 */
export const DEMO_LOCATIONS: readonly DemoLocationSpec[] = [
  {
    publicName: 'Harbour View / Block C',
    address: 'Rua da Boavista 12, 1200-066 Lisboa, Portugal',
    timeZone: 'Europe/Lisbon',
    client: 'clientA',
    cubes: 2,
    meters: [
      { label: 'Apt C-101', profile: 'home', averageKw: 0.42, cube: 0, priority: Medium },
      {
        label: 'Apt C-102',
        profile: 'home',
        averageKw: 0.55,
        cube: 0,
        priority: Medium,
        special: 'estimated',
      },
      { label: 'Apt C-201', profile: 'home', averageKw: 0.38, cube: 0, priority: New },
      // An old five-digit electromechanical register, close to 99,999 kWh when the data starts.
      {
        label: 'Apt C-202',
        profile: 'home',
        averageKw: 0.22,
        cube: 1,
        priority: High,
        registerDigits: 5,
        special: 'rollover',
      },
      // Solar panels on the roof: an import and an export channel, net metering.
      {
        label: 'Apt C-301',
        profile: 'home',
        averageKw: 0.68,
        cube: 1,
        priority: Medium,
        solar: { kWp: 4, latitude: 38.71, longitude: -9.14 },
      },
      { label: 'Common areas', profile: 'office', averageKw: 0.9, cube: 1, priority: High },
    ],
  },
  {
    publicName: 'Riverside Campus – Library',
    address: 'Uferstraße 5, 13357 Berlin, Germany',
    timeZone: 'Europe/Berlin',
    client: 'clientA',
    cubes: 1,
    meters: [
      // Main supply through 200/5 A current transformers: the register counts 1/40 of the energy.
      {
        label: 'Main supply',
        profile: 'office',
        averageKw: 45,
        cube: 0,
        priority: High,
        multiplier: 40,
        mainSupply: true,
      },
      { label: 'Lighting', profile: 'office', averageKw: 6, cube: 0, priority: Medium },
      { label: 'HVAC', profile: 'office', averageKw: 12, cube: 0, priority: Medium, special: 'gap' },
      { label: 'Café', profile: 'retail', averageKw: 3, cube: 0, priority: New, special: 'faulty' },
      { label: 'Reading rooms', profile: 'office', averageKw: 2.5, cube: 0, priority: Medium },
    ],
  },
  {
    publicName: 'Marina Quay / Pier 4',
    address: 'Am Sandtorkai 40, 20457 Hamburg, Germany',
    timeZone: 'Europe/Berlin',
    client: 'clientB',
    cubes: 2,
    meters: [
      { label: 'Harbour office', profile: 'office', averageKw: 4, cube: 0, priority: Medium },
      {
        label: 'Chandlery shop',
        profile: 'retail',
        averageKw: 2,
        cube: 0,
        priority: High,
        special: 'exchange',
      },
      { label: 'Berths A1–A12', profile: 'home', averageKw: 1.5, cube: 0, priority: Medium },
      { label: 'Berths B1–B10', profile: 'home', averageKw: 1.2, cube: 1, priority: New },
      { label: 'Restaurant', profile: 'retail', averageKw: 8, cube: 1, priority: High, special: 'estimated' },
    ],
  },
  {
    publicName: 'Elm Street Lofts – Building 2',
    address: '212 Elm Street, Brooklyn, NY 11201, USA',
    timeZone: 'America/New_York',
    client: 'clientB',
    cubes: 2,
    staleCube: 1,
    meters: [
      { label: 'Loft 2A', profile: 'home', averageKw: 0.6, cube: 0, priority: Medium },
      { label: 'Loft 2B', profile: 'home', averageKw: 0.9, cube: 0, priority: Medium },
      { label: 'Loft 3A', profile: 'home', averageKw: 0.5, cube: 1, priority: New },
      { label: 'Loft 3B', profile: 'home', averageKw: 0.75, cube: 1, priority: High },
    ],
  },
  {
    publicName: 'Northgate Business Park – Hall 2',
    address: '1400 Northgate Boulevard, Newark, NJ 07104, USA',
    timeZone: 'America/New_York',
    client: null,
    cubes: 1,
    meters: [
      // 400/5 A current transformers: the register counts 1/80 of the energy.
      {
        label: 'Hall 2 main supply',
        profile: 'office',
        averageKw: 110,
        cube: 0,
        priority: High,
        multiplier: 80,
        mainSupply: true,
      },
      { label: 'Workshop', profile: 'office', averageKw: 25, cube: 0, priority: Medium },
      { label: 'Warehouse lighting', profile: 'office', averageKw: 6, cube: 0, priority: Medium },
      // A unit whose tenant left; its meter was switched off and the unit is not yet let again.
      {
        label: 'Unit 2B',
        profile: 'office',
        averageKw: 3,
        cube: 0,
        priority: NotYetOpen,
        special: 'inactive',
      },
    ],
  },
];

/** Status a meter's device has at the end of the demo period, from the special case it plays. */
export function statusFor(special: SpecialRole | undefined): DeviceStatus {
  if (special === 'faulty') return 'faulty';
  if (special === 'inactive') return 'inactive';
  return 'active';
}
