import { DevicePriority, type DevicePriorityId, type DeviceStatus } from '@cm/contracts/enums.ts';
import type { TariffDay } from '@cm/contracts/tariff-days.ts';
import type { TariffDraft } from '@cm/contracts/tariffs.ts';
import type { AlertKind } from '@cm/contracts/alerts.ts';
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
  /** Day of the month a bill starts; none for calendar months. */
  billingDay?: number;
  /**
   * Tariff versions, oldest first: the first prices the whole history (from the first day of the
   * month the data starts in), each later one starts on the first of the month `monthsAgo` months
   * before now, so a new user sees a price change inside the last year.
   */
  tariffs: DemoTariffSpec[];
  /** Alert rules for every meter of the location (kind and threshold, as the API takes them). */
  alertRules: { kind: AlertKind; threshold: number | null }[];
}

/** A demo tariff version: the API's body without its date, holidays as month-days (`12-25`) of every year. */
export type DemoTariffSpec = Omit<TariffDraft, 'effectiveFrom' | 'importSeries' | 'exportSeries' | 'demand'> &
  Partial<Pick<TariffDraft, 'importSeries' | 'exportSeries' | 'demand'>> & { monthsAgo?: number };

const EVERY_DAY: TariffDay[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun', 'holiday'];
const WEEKDAYS: TariffDay[] = ['mon', 'tue', 'wed', 'thu', 'fri'];
const noHolidays: string[] = [];

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
    // Portugal's two-rate ("bi-horário") household tariff: night hours 22:00–08:00 cheaper, VAT 23 %,
    // export paid; prices rose four months ago.
    billingDay: 17,
    alertRules: [
      { kind: 'silent', threshold: 6 },
      { kind: 'usualAbove', threshold: 2.5 },
      { kind: 'registerDecrease', threshold: null },
    ],
    tariffs: [
      {
        currency: 'EUR',
        energyPrice: '0.1894',
        windows: [{ label: 'Vazio', price: '0.1043', days: EVERY_DAY, from: '22:00', to: '08:00' }],
        holidays: noHolidays,
        standingChargePerDay: '0.3295',
        taxPercent: '23',
        feedInPrice: '0.05',
      },
      {
        monthsAgo: 4,
        currency: 'EUR',
        energyPrice: '0.2047',
        windows: [{ label: 'Vazio', price: '0.1126', days: EVERY_DAY, from: '22:00', to: '08:00' }],
        holidays: noHolidays,
        standingChargePerDay: '0.3295',
        taxPercent: '23',
        feedInPrice: '0.05',
      },
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
    // A flat commercial tariff, VAT 19 %, with a capacity charge (issue 36, docs/demand.md): 52.50
    // EUR per kW-year of the rolling 12-month average of the monthly 15-minute peaks, each at least
    // 2.5 kW, charged per day. Fixed figures, like all the demo's: the seed stays deterministic.
    // An alert when a quarter hour nears 90 % of the month's peak so far.
    alertRules: [
      { kind: 'silent', threshold: 6 },
      { kind: 'peakNear', threshold: 90 },
    ],
    tariffs: [
      {
        currency: 'EUR',
        energyPrice: '0.2480',
        windows: [],
        holidays: noHolidays,
        standingChargePerDay: '4.50',
        taxPercent: '19',
        feedInPrice: null,
        demand: {
          intervalMinutes: 15,
          pricePerKw: null,
          window: null,
          ratchetPercent: null,
          capacityPricePerKwYear: '52.5',
          capacityFloorKw: '2.5',
        },
      },
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
    // Day and night rates (HT/NT) on weekdays, the night rate all weekend and on public holidays.
    billingDay: 1,
    alertRules: [
      { kind: 'silent', threshold: 6 },
      { kind: 'registerDecrease', threshold: null },
    ],
    tariffs: [
      {
        currency: 'EUR',
        energyPrice: '0.2710',
        windows: [{ label: 'HT', price: '0.3420', days: WEEKDAYS, from: '06:00', to: '22:00' }],
        // Germany's fixed-date holidays (month-day), every year of the data.
        holidays: ['01-01', '05-01', '10-03', '12-25', '12-26'],
        standingChargePerDay: '0.52',
        taxPercent: '19',
        feedInPrice: null,
      },
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
    // A summer peak on weekday afternoons and evenings (June–September), sales tax 4.5 %.
    billingDay: 5,
    // The stale Cube: its meters have sent nothing for 30 hours, so this rule fires at once.
    alertRules: [{ kind: 'silent', threshold: 6 }],
    tariffs: [
      {
        currency: 'USD',
        energyPrice: '0.2412',
        windows: [
          {
            label: 'Summer peak',
            price: '0.3318',
            days: WEEKDAYS,
            from: '14:00',
            to: '22:00',
            months: [6, 7, 8, 9],
          },
        ],
        holidays: noHolidays,
        standingChargePerDay: '0.58',
        taxPercent: '4.5',
        feedInPrice: null,
      },
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
    // A flat commercial tariff; the standing charge rose two months ago.
    alertRules: [{ kind: 'silent', threshold: 12 }],
    tariffs: [
      {
        currency: 'USD',
        energyPrice: '0.1865',
        windows: [],
        holidays: noHolidays,
        standingChargePerDay: '3.10',
        taxPercent: '6.625',
        feedInPrice: null,
      },
      {
        monthsAgo: 2,
        currency: 'USD',
        energyPrice: '0.1865',
        windows: [],
        holidays: noHolidays,
        standingChargePerDay: '3.60',
        taxPercent: '6.625',
        feedInPrice: null,
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
