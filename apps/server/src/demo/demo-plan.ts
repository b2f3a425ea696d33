import {
  DevicePriority,
  DeviceType,
  type DevicePriorityId,
  type DeviceStatus,
  type RoleId,
} from '@cm/contracts/enums.ts';
import type { TariffDraft } from '@cm/contracts/tariffs.ts';
import type { AlertKind } from '@cm/contracts/alerts.ts';
import {
  DAY_MS,
  HOUR_MS,
  instantOfWall,
  localDateOf,
  localDayNumber,
  MINUTE_MS,
  offsetChanges,
} from '@cm/contracts/zoned-time.ts';
import { DEMO_LOCATIONS, statusFor, type DemoClientKey, type DemoMeterSpec } from './demo-content.ts';
import { intervalEnergyWh, solarEnergyWh, STEP_MS } from './load-profile.ts';
import { createRng, type Rng } from './prng.ts';

const STEPS_PER_DAY = DAY_MS / STEP_MS;
// readings.source and readings.quality codes (schema.ts).
const SOURCE_DEVICE = 0;
const SOURCE_EXCHANGE = 4;
const QUALITY_ESTIMATED = 1;
const FIRST_METER_NUMBER = 10_001;

/** A demo account before it is written: the password is already hashed. */
export interface DemoUserInput {
  key: 'admin' | DemoClientKey;
  email: string;
  fullName: string;
  roleId: RoleId;
  passwordHash: string;
}

export interface PlanInput {
  seed: number;
  /** End of the period, on a 15-minute mark. */
  nowMs: number;
  months: number;
  users: readonly DemoUserInput[];
}

/** One meter's readings, in time order, as columns (the shape they are inserted in). */
export interface ReadingSeries {
  readAtMs: Float64Array;
  /** Cumulative register in thousandths of a kWh (Wh), before the multiplier. */
  registerMilli: Float64Array;
  source: Uint8Array;
  quality: Uint8Array;
}

export interface PlanDevice {
  serial: string;
  type: number;
  parentSerial: string | null;
  locationName: string;
  priority: DevicePriorityId;
  status: DeviceStatus;
  lastSeenAt: Date | null;
  createdAt: Date;
}

export interface PlanMeter {
  deviceSerial: string;
  meterNumber: string;
  /** What the site calls it ("Apt C-101"); a replacement keeps its predecessor's. */
  label: string;
  mainSupply: boolean;
  locationName: string;
  meterInd: number;
  multiplier: number;
  registerDigits: number;
  installedAt: Date;
  removedAt: Date | null;
  /** The import channel (energy delivered to the site). */
  readings: ReadingSeries;
  /** The export channel of a meter with rooftop solar (energy the site sent to the grid); else null. */
  exportReadings: ReadingSeries | null;
}

/** A bookmark target; the item id (`location:12`, `meter:EM-10004`) needs database ids, so it is built on insert. */
export type PlanBookmarkItem =
  { kind: 'location'; locationName: string } | { kind: 'meter'; meterNumber: string };

/** Everything the demo inserts, computed without a database. */
export interface DemoPlan {
  locations: {
    publicName: string;
    address: string;
    timeZone: string;
    createdAt: Date;
    billingDay: number | null;
  }[];
  /** Tariff versions per location, oldest first. */
  tariffs: { locationName: string; tariff: TariffDraft }[];
  /** Alert rules per location (every meter). */
  alertRules: { locationName: string; kind: AlertKind; threshold: number | null }[];
  users: (DemoUserInput & { createdAt: Date })[];
  userLocations: { email: string; locationName: string }[];
  /** In insertion order: AccessPoints, then Cubes, then meters (a parent always comes first). */
  devices: PlanDevice[];
  meters: PlanMeter[];
  bookmarks: { email: string; item: PlanBookmarkItem; createdAt: Date }[];
  summary: DemoSummary;
}

/** What the demo holds, for the start-up log, the README and tests. Instants are ISO 8601 UTC. */
export interface DemoSummary {
  seed: number;
  months: number;
  from: string;
  now: string;
  users: number;
  locations: number;
  userLocations: number;
  accessPoints: number;
  cubes: number;
  /** Meters (devices of type 3 with a meters row), the exchanged one and its replacement both counted. */
  meters: number;
  readings: number;
  estimatedReadings: number;
  bookmarks: number;
  /** Each location, who sees it besides the administrator, and its meters in meterInd order (the replacement last). */
  sites: { publicName: string; timeZone: string; clientEmail: string | null; meterNumbers: string[] }[];
  /** Every DST switch inside the period, per zone: the local day has 23 hours (spring) or 25 (autumn). */
  dstChanges: {
    timeZone: string;
    at: string;
    localDate: string;
    offsetBeforeMinutes: number;
    offsetAfterMinutes: number;
    dayHours: number;
  }[];
  /** Readings missing on one meter for six hours; the register keeps counting, so the reading after the gap jumps. */
  gap: {
    meterNumber: string;
    locationName: string;
    meterInd: number;
    localDate: string;
    lastBefore: string;
    firstMissing: string;
    lastMissing: string;
    firstAfter: string;
    missingReadings: number;
  };
  /** A five-digit register that passes 99,999.999 kWh and starts again from 0. */
  rollover: {
    meterNumber: string;
    locationName: string;
    meterInd: number;
    registerDigits: number;
    firstRegisterMilli: number;
    lastBeforeWrap: { at: string; registerMilli: number };
    firstAfterWrap: { at: string; registerMilli: number };
  };
  /** The old meter's final reading and the new meter's start reading share the instant `at` (source 4, exchange). */
  exchange: {
    locationName: string;
    meterInd: number;
    at: string;
    oldMeterNumber: string;
    oldFinalRegisterMilli: number;
    newMeterNumber: string;
    newStartRegisterMilli: number;
  };
  /** A Cube that stopped reporting: its meters' last readings are about 30 hours old. */
  staleCube: { serial: string; locationName: string; lastSeenAt: string; meterNumbers: string[] };
  faultyMeter: { meterNumber: string; estimatedFrom: string };
  inactiveMeter: { meterNumber: string; lastReadingAt: string };
  ctMeters: { meterNumber: string; multiplier: number }[];
  estimated: { meterNumbers: string[]; readings: number };
  /** A home with rooftop solar: its meter has an import and an export channel. */
  solar: { meterNumber: string; locationName: string; kWp: number };
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A location's tariff versions with their dates: the first from the first day of the month the
 * data starts in (local), each later one from the first of the month `monthsAgo` before now;
 * holidays (month-days) in every year of the data.
 */
function planTariffs(loc: DemoLocation, startMs: number, nowMs: number): DemoPlan['tariffs'] {
  const firstYear = Number(localDateOf(startMs, loc.timeZone).slice(0, 4));
  const lastYear = Number(localDateOf(nowMs, loc.timeZone).slice(0, 4)) + 1;
  const planned = loc.tariffs.map(({ monthsAgo, ...tariff }) => {
    const from = monthsAgo === undefined ? startMs : monthsBefore(nowMs, monthsAgo);
    const holidays: string[] = [];
    for (let year = firstYear; year <= lastYear; year++)
      for (const monthDay of tariff.holidays) holidays.push(`${year}-${monthDay}`);
    return {
      locationName: loc.publicName,
      tariff: {
        ...tariff,
        importSeries: tariff.importSeries ?? null,
        exportSeries: tariff.exportSeries ?? null,
        demand: tariff.demand ?? null,
        holidays,
        effectiveFrom: `${localDateOf(from, loc.timeZone).slice(0, 7)}-01`,
      },
    };
  });
  // A history shorter than a price change starts with the later version: each starts no earlier
  // than the history, and of two on one date the later one stays.
  const firstDate = planned[0]?.tariff.effectiveFrom ?? '';
  const byDate = new Map<string, (typeof planned)[number]>();
  for (const version of planned) {
    const effectiveFrom = version.tariff.effectiveFrom < firstDate ? firstDate : version.tariff.effectiveFrom;
    byDate.set(effectiveFrom, { ...version, tariff: { ...version.tariff, effectiveFrom } });
  }
  return [...byDate.values()];
}

/** Subtracts calendar months in UTC (the period is "13 months up to now"). */
function monthsBefore(ms: number, months: number): number {
  const d = new Date(ms);
  return Date.UTC(
    d.getUTCFullYear(),
    d.getUTCMonth() - months,
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
  );
}

interface Grid {
  startMs: number;
  count: number;
}

const instantOf = (grid: Grid, index: number) => grid.startMs + index * STEP_MS;

/**
 * The reading index at `hour:minute` local time on the local day that contains the reading at `fraction`
 * of the period, moved to the next Monday–Friday when `weekdaysOnly` (nobody exchanges a shop's meter on
 * a Sunday).
 */
function localMoment(
  grid: Grid,
  timeZone: string,
  fraction: number,
  hour: number,
  minute: number,
  weekdaysOnly: boolean,
) {
  const approx = instantOf(grid, Math.round(fraction * (grid.count - 1)));
  let localDay = localDayNumber(approx, timeZone);
  const weekday = (day: number) => (((day + 4) % 7) + 7) % 7;
  while (weekdaysOnly && (weekday(localDay) === 0 || weekday(localDay) === 6)) localDay += 1;
  const utc = instantOfWall(localDay * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS, timeZone);
  return Math.floor((utc - grid.startMs) / STEP_MS);
}

function flatten(energy: Float64Array, from: number, to: number) {
  // An estimating device reports its average consumption: the same energy in total, spread evenly.
  let sum = 0;
  for (let i = from; i < to; i += 1) sum += energy[i] ?? 0;
  energy.fill(sum / (to - from), from, to);
}

/** Register values (before the modulus) for `energy`, counted on a meter with `multiplier`: the cumulative energy, rounded to the Wh. */
function registerCounts(energy: Float64Array, multiplier: number): Float64Array {
  const counts = new Float64Array(energy.length);
  let cumulative = 0;
  for (let i = 1; i < energy.length; i += 1) {
    cumulative += (energy[i] ?? 0) / multiplier;
    counts[i] = Math.round(cumulative);
  }
  return counts;
}

interface SeriesOptions {
  grid: Grid;
  from: number;
  to: number;
  counts: Float64Array;
  /** Register value at index `from`. */
  startMilli: number;
  registerDigits: number;
  missing?: { from: number; to: number };
  estimated: { from: number; to: number }[];
  exchangeAt?: number;
}

function buildSeries(o: SeriesOptions): ReadingSeries {
  // The register wraps at 10^digits kWh, i.e. 10^(digits + 3) Wh.
  const modulus = 10 ** (o.registerDigits + 3);
  const base = o.counts[o.from] ?? 0;
  const indices: number[] = [];
  for (let i = o.from; i <= o.to; i += 1) {
    if (o.missing && i >= o.missing.from && i < o.missing.to) continue;
    indices.push(i);
  }
  const series: ReadingSeries = {
    readAtMs: new Float64Array(indices.length),
    registerMilli: new Float64Array(indices.length),
    source: new Uint8Array(indices.length).fill(SOURCE_DEVICE),
    quality: new Uint8Array(indices.length),
  };
  indices.forEach((i, k) => {
    series.readAtMs[k] = instantOf(o.grid, i);
    series.registerMilli[k] = (o.startMilli + (o.counts[i] ?? 0) - base) % modulus;
    if (i === o.exchangeAt) series.source[k] = SOURCE_EXCHANGE;
    if (o.estimated.some((run) => i >= run.from && i < run.to)) series.quality[k] = QUALITY_ESTIMATED;
  });
  return series;
}

/** A plausible register reading for a meter that has been in service for a while. */
const startRegister = (rng: Rng, spec: DemoMeterSpec) =>
  (spec.multiplier ? rng.int(500, 5_000) : rng.int(1_000, 60_000)) * 1000 + rng.int(0, 999);

/** What every part of the plan shares. */
interface PlanFrame {
  seed: number;
  nowMs: number;
  startMs: number;
  grid: Grid;
  /** Index of the last reading (`now`). */
  last: number;
  /** A Cube that has not been heard from for 30 hours: long enough to be flagged late, short enough to be recent. */
  staleIndex: number;
  /** The replacement meter in the exchange gets the number after all the others. */
  replacementNumber: string;
}

/** The special cases, filled in as the meters that play them are built. */
interface SpecialCases {
  gap?: DemoSummary['gap'];
  rollover?: DemoSummary['rollover'];
  exchange?: DemoSummary['exchange'];
  staleCube?: DemoSummary['staleCube'];
  faultyMeter?: DemoSummary['faultyMeter'];
  inactiveMeter?: DemoSummary['inactiveMeter'];
  solar?: DemoSummary['solar'];
  ctMeters: DemoSummary['ctMeters'];
  estimatedMeters: Set<string>;
}

type DemoLocation = (typeof DEMO_LOCATIONS)[number];

/** A meter position being planned: where it is, its number and its own random stream. */
interface Position {
  loc: DemoLocation;
  /** Index of the location (its random streams and serials). */
  l: number;
  spec: DemoMeterSpec;
  meterInd: number;
  meterNumber: string;
  rng: Rng;
}

/**
 * A location's AccessPoint and Cubes, the Cubes numbered from `firstCube` (the site stream draws
 * their last-seen times, in this order).
 */
function planNetwork(
  frame: PlanFrame,
  site: { loc: DemoLocation; l: number; createdAt: Date; firstCube: number },
  siteRng: Rng,
) {
  const { loc, l, createdAt } = site;
  const ap: PlanDevice = {
    serial: `AP-${1001 + l}`,
    type: DeviceType.AccessPoint,
    parentSerial: null,
    locationName: loc.publicName,
    priority: DevicePriority.High,
    status: 'active',
    lastSeenAt: new Date(frame.nowMs - siteRng.int(10, 240) * 1000),
    createdAt: new Date(createdAt.getTime() + DAY_MS),
  };
  const cubes: PlanDevice[] = [];
  for (let c = 0; c < loc.cubes; c += 1) {
    const isStale = loc.staleCube === c;
    cubes.push({
      serial: `CU-${site.firstCube + c}`,
      type: DeviceType.Cube,
      parentSerial: ap.serial,
      locationName: loc.publicName,
      priority: isStale ? DevicePriority.High : DevicePriority.Medium,
      status: 'active',
      lastSeenAt: new Date(
        isStale
          ? instantOf(frame.grid, frame.staleIndex) + siteRng.int(20, 90) * 1000
          : frame.nowMs - siteRng.int(30, 600) * 1000,
      ),
      createdAt: new Date(createdAt.getTime() + 2 * DAY_MS),
    });
  }
  return { ap, cubes };
}

/**
 * When a meter's readings stop, which are missing and which are estimates: the special cases
 * "estimated", "faulty", "inactive" and "gap" (a meter on a stale Cube stops with it).
 */
function readingsTimeline(frame: PlanFrame, position: Position, isStale: boolean, specials: SpecialCases) {
  const { loc, spec, meterInd, meterNumber, rng } = position;
  const { grid, last } = frame;
  let lastIndex = isStale ? frame.staleIndex : last;
  let missing: SeriesOptions['missing'];
  const estimated: SeriesOptions['estimated'] = [];
  if (spec.special === 'estimated') {
    // Two hours the device could not measure (a brief supply problem) and filled with estimates.
    const from = rng.int(Math.floor(grid.count * 0.2), Math.floor(grid.count * 0.7));
    estimated.push({ from, to: from + 8 });
  }
  if (spec.special === 'faulty') {
    // The café meter's measuring element failed two days ago; since then it reports estimates.
    estimated.push({ from: last + 1 - 2 * STEPS_PER_DAY, to: last + 1 });
    specials.faultyMeter = { meterNumber, estimatedFrom: iso(instantOf(grid, last + 1 - 2 * STEPS_PER_DAY)) };
  }
  if (spec.special === 'inactive') {
    // The tenant left and the meter was switched off at 17:00 local time; nothing since.
    lastIndex = localMoment(grid, loc.timeZone, 0.7, 17, 0, true);
    specials.inactiveMeter = { meterNumber, lastReadingAt: iso(instantOf(grid, lastIndex)) };
  }
  if (spec.special === 'gap') {
    // Communication gap: the Cube lost this meter from 09:00 to 15:00 local time. The readings
    // 09:00 … 14:45 are missing; the 15:00 reading holds the whole six hours' consumption.
    const from = localMoment(grid, loc.timeZone, 0.8, 9, 0, true);
    missing = { from, to: from + 6 * (HOUR_MS / STEP_MS) };
    specials.gap = {
      meterNumber,
      locationName: loc.publicName,
      meterInd,
      localDate: localDateOf(instantOf(grid, from), loc.timeZone),
      lastBefore: iso(instantOf(grid, from - 1)),
      firstMissing: iso(instantOf(grid, from)),
      lastMissing: iso(instantOf(grid, missing.to - 1)),
      firstAfter: iso(instantOf(grid, missing.to)),
      missingReadings: missing.to - missing.from,
    };
  }
  return { lastIndex, missing, estimated };
}

/**
 * Rooftop solar: the meter imports what the home uses beyond the panels' output and exports the
 * rest, interval by interval (its own random stream: the load stays as it was). `energy` becomes
 * the import; the export's register counts are returned.
 */
function splitSolar(frame: PlanFrame, position: Position, energy: Float64Array, specials: SpecialCases) {
  const { spec, l, meterInd, meterNumber, loc } = position;
  if (!spec.solar) return null;
  const solarRng = createRng(frame.seed, `solar:${l}:${meterInd}`);
  const generated = solarEnergyWh(spec.solar, frame.startMs, frame.grid.count, solarRng);
  const exported = new Float64Array(frame.grid.count);
  for (let i = 0; i < frame.grid.count; i += 1) {
    const net = (energy[i] ?? 0) - (generated[i] ?? 0);
    energy[i] = Math.max(net, 0);
    exported[i] = Math.max(-net, 0);
  }
  const counts = registerCounts(exported, spec.multiplier ?? 1);
  const startMilli = solarRng.int(300, 4_000) * 1000;
  specials.solar = { meterNumber, locationName: loc.publicName, kWp: spec.solar.kWp };
  return { counts, startMilli };
}

/**
 * The first register value of the rollover meter: chosen so that the register passes 10^5 kWh
 * about ten days in (or a tenth of a short period): it starts just under 100,000 kWh and wraps to
 * a few Wh.
 */
function rolloverStart(frame: PlanFrame, position: Position, counts: Float64Array, registerDigits: number) {
  const { grid, last } = frame;
  let wrap = Math.min(10 * STEPS_PER_DAY, Math.round(grid.count * 0.1));
  while ((counts[wrap] ?? 0) - (counts[wrap - 1] ?? 0) < 2) {
    wrap += 1;
    if (wrap >= last) throw new Error('demo content: the rollover meter never consumes enough to wrap');
  }
  const step = (counts[wrap] ?? 0) - (counts[wrap - 1] ?? 0);
  const startMilli = 10 ** (registerDigits + 3) - (counts[wrap] ?? 0) + Math.floor(step / 2);
  const valueAt = (i: number) => (startMilli + (counts[i] ?? 0)) % 10 ** (registerDigits + 3);
  const rollover: DemoSummary['rollover'] = {
    meterNumber: position.meterNumber,
    locationName: position.loc.publicName,
    meterInd: position.meterInd,
    registerDigits,
    firstRegisterMilli: startMilli,
    lastBeforeWrap: { at: iso(instantOf(grid, wrap - 1)), registerMilli: valueAt(wrap - 1) },
    firstAfterWrap: { at: iso(instantOf(grid, wrap)), registerMilli: valueAt(wrap) },
  };
  return { startMilli, rollover };
}

/** One meter position: its meter (and, for the exchange, the old meter and its replacement). */
function planPosition(
  frame: PlanFrame,
  position: Position,
  cube: PlanDevice,
  isStale: boolean,
  specials: SpecialCases,
): { devices: PlanDevice[]; meters: PlanMeter[]; meterNumbers: string[] } {
  const { loc, spec, meterInd, meterNumber, rng } = position;
  const { grid, last, startMs } = frame;
  const multiplier = spec.multiplier ?? 1;
  const registerDigits = spec.registerDigits ?? 6;
  if (spec.multiplier) specials.ctMeters.push({ meterNumber, multiplier });
  const installedAt = Math.floor((startMs - rng.int(60, 900) * DAY_MS) / HOUR_MS) * HOUR_MS;
  const energy = intervalEnergyWh({
    profile: spec.profile,
    averageKw: spec.averageKw,
    timeZone: loc.timeZone,
    startMs,
    count: grid.count,
    rng,
  });
  const timeline = readingsTimeline(frame, position, isStale, specials);
  const { missing, estimated } = timeline;
  for (const run of estimated) {
    flatten(energy, run.from, run.to);
    specials.estimatedMeters.add(meterNumber);
  }
  const exported = splitSolar(frame, position, energy, specials);
  const counts = registerCounts(energy, multiplier);

  let startMilli = startRegister(rng, spec);
  if (spec.special === 'rollover') {
    const chosen = rolloverStart(frame, position, counts, registerDigits);
    startMilli = chosen.startMilli;
    specials.rollover = chosen.rollover;
  }

  // Meter exchange at 10:30 local time on a weekday: the old meter's final reading and the new
  // meter's start reading are both taken at that instant (source 4). The new meter continues the
  // same consumption from a low register value of its own; the old one is removed.
  const exchangeAt =
    spec.special === 'exchange' ? localMoment(grid, loc.timeZone, 0.6, 10, 30, true) : undefined;
  const lastIndex = exchangeAt ?? timeline.lastIndex;

  const device: PlanDevice = {
    serial: `SN-${meterNumber.slice(3)}`,
    type: DeviceType.Meter,
    parentSerial: cube.serial,
    locationName: loc.publicName,
    priority: spec.priority,
    status: exchangeAt === undefined ? statusFor(spec.special) : 'removed',
    // A meter was last heard from when it sent its latest reading (a few seconds after it, unless that is `now`).
    lastSeenAt: new Date(
      instantOf(grid, lastIndex) +
        (lastIndex === last || exchangeAt !== undefined ? 0 : rng.int(5, 60) * 1000),
    ),
    createdAt: new Date(installedAt),
  };
  const series = { grid, from: 0, to: lastIndex, registerDigits, missing };
  const meter: PlanMeter = {
    deviceSerial: device.serial,
    meterNumber,
    label: spec.label,
    mainSupply: spec.mainSupply ?? false,
    locationName: loc.publicName,
    meterInd,
    multiplier,
    registerDigits,
    installedAt: new Date(installedAt),
    removedAt: exchangeAt === undefined ? null : new Date(instantOf(grid, exchangeAt)),
    readings: buildSeries({ ...series, counts, startMilli, estimated, exchangeAt }),
    exportReadings: exported
      ? buildSeries({ ...series, counts: exported.counts, startMilli: exported.startMilli, estimated: [] })
      : null,
  };
  if (exchangeAt === undefined) return { devices: [device], meters: [meter], meterNumbers: [meterNumber] };

  const replaced = planReplacement(frame, position, { device, meter, counts, estimated, exchangeAt });
  specials.exchange = replaced.exchange;
  return {
    devices: [device, replaced.device],
    meters: [meter, replaced.meter],
    meterNumbers: [meterNumber, frame.replacementNumber],
  };
}

/**
 * The exchange: the new meter starts at the old one's last instant from a low register of its
 * own and counts the same consumption on; the old one's final reading shares that instant.
 */
function planReplacement(
  frame: PlanFrame,
  position: Position,
  old: {
    device: PlanDevice;
    meter: PlanMeter;
    counts: Float64Array;
    estimated: SeriesOptions['estimated'];
    exchangeAt: number;
  },
) {
  const { grid, last } = frame;
  const { device, meter, counts, estimated, exchangeAt } = old;
  const at = instantOf(grid, exchangeAt);
  const newStart = position.rng.int(2, 40) * 1000 + position.rng.int(0, 999);
  const replacement = frame.replacementNumber;
  const newDevice: PlanDevice = {
    ...device,
    serial: `SN-${replacement.slice(3)}`,
    status: 'active',
    priority: DevicePriority.New,
    lastSeenAt: new Date(frame.nowMs),
    createdAt: new Date(at),
  };
  const readings = buildSeries({
    grid,
    from: exchangeAt,
    to: last,
    counts,
    startMilli: newStart,
    registerDigits: meter.registerDigits,
    estimated,
    exchangeAt,
  });
  const exchange: DemoSummary['exchange'] = {
    locationName: position.loc.publicName,
    meterInd: position.meterInd,
    at: iso(at),
    oldMeterNumber: meter.meterNumber,
    oldFinalRegisterMilli: meter.readings.registerMilli[meter.readings.registerMilli.length - 1] ?? 0,
    newMeterNumber: replacement,
    newStartRegisterMilli: newStart,
  };
  return {
    device: newDevice,
    meter: {
      ...meter,
      deviceSerial: newDevice.serial,
      meterNumber: replacement,
      installedAt: new Date(at),
      removedAt: null,
      readings,
    },
    exchange,
  };
}

/** Client A has starred one of its locations and the meter with the old five-digit register. */
function demoBookmarks(
  input: PlanInput,
  rollover: DemoSummary['rollover'] | undefined,
): DemoPlan['bookmarks'] {
  const clientA = input.users.find((u) => u.key === 'clientA')?.email;
  const firstA = DEMO_LOCATIONS.find((l) => l.client === 'clientA');
  if (!clientA || !firstA || !rollover) return [];
  return [
    {
      email: clientA,
      item: { kind: 'location', locationName: firstA.publicName },
      createdAt: new Date(input.nowMs - 20 * DAY_MS),
    },
    {
      email: clientA,
      item: { kind: 'meter', meterNumber: rollover.meterNumber },
      createdAt: new Date(input.nowMs - 19 * DAY_MS),
    },
  ];
}

/** Every DST switch inside (start, now], per zone of the demo. */
function dstChangesOf(startMs: number, nowMs: number): DemoSummary['dstChanges'] {
  return [...new Set(DEMO_LOCATIONS.map((l) => l.timeZone))].flatMap((timeZone) =>
    // Changes in (start, now]: one at `now` itself has happened.
    offsetChanges(startMs + 1, nowMs + 1, timeZone).map((c) => ({
      timeZone,
      at: iso(c.at),
      localDate: localDateOf(c.at, timeZone),
      offsetBeforeMinutes: c.fromOffset,
      offsetAfterMinutes: c.toOffset,
      dayHours: 24 - (c.toOffset - c.fromOffset) / 60,
    })),
  );
}

/** Builds the whole demo from `seed` and `now`; pure, so two calls with the same input give identical data. */
export function buildDemoPlan(input: PlanInput): DemoPlan {
  const { seed, nowMs, months } = input;
  const startMs = monthsBefore(nowMs, months);
  const grid: Grid = { startMs, count: (nowMs - startMs) / STEP_MS + 1 };
  const last = grid.count - 1;
  const frame: PlanFrame = {
    seed,
    nowMs,
    startMs,
    grid,
    last,
    staleIndex: last - 30 * (HOUR_MS / STEP_MS),
    replacementNumber: `EM-${FIRST_METER_NUMBER + DEMO_LOCATIONS.reduce((n, l) => n + l.meters.length, 0)}`,
  };
  const siteRng = createRng(seed, 'site');
  const locations: DemoPlan['locations'] = [];
  const userLocations: DemoPlan['userLocations'] = [];
  const tariffs: DemoPlan['tariffs'] = [];
  const alertRules: DemoPlan['alertRules'] = [];
  const meters: PlanMeter[] = [];
  const accessPoints: PlanDevice[] = [];
  const cubes: PlanDevice[] = [];
  const meterDevices: PlanDevice[] = [];
  const specials: SpecialCases = { ctMeters: [], estimatedMeters: new Set() };
  const sites: DemoSummary['sites'] = [];
  let meterCounter = 0;

  DEMO_LOCATIONS.forEach((loc, l) => {
    const createdAt = new Date(startMs - (1000 + 7 * l) * DAY_MS);
    locations.push({
      publicName: loc.publicName,
      address: loc.address,
      timeZone: loc.timeZone,
      createdAt,
      billingDay: loc.billingDay ?? null,
    });
    tariffs.push(...planTariffs(loc, startMs, nowMs));
    alertRules.push(...loc.alertRules.map((rule) => ({ locationName: loc.publicName, ...rule })));
    const clientEmail = loc.client ? (input.users.find((u) => u.key === loc.client)?.email ?? null) : null;
    if (clientEmail) userLocations.push({ email: clientEmail, locationName: loc.publicName });
    const network = planNetwork(frame, { loc, l, createdAt, firstCube: 2001 + cubes.length }, siteRng);
    const locationCubes = network.cubes;
    cubes.push(...locationCubes);
    accessPoints.push(network.ap);

    const meterNumbers: string[] = [];
    const firstNumbers: string[] = [];
    loc.meters.forEach((spec, k) => {
      const meterInd = k + 1;
      const cube = locationCubes[spec.cube];
      if (!cube) throw new Error(`demo content: ${loc.publicName} has no Cube ${spec.cube}`);
      const position: Position = {
        loc,
        l,
        spec,
        meterInd,
        meterNumber: `EM-${FIRST_METER_NUMBER + meterCounter++}`,
        // One stream per meter position: changing one meter of the table leaves every other series as it was.
        rng: createRng(seed, `meter:${l}:${meterInd}`),
      };
      firstNumbers.push(position.meterNumber);
      const planned = planPosition(frame, position, cube, loc.staleCube === spec.cube, specials);
      meterDevices.push(...planned.devices);
      meters.push(...planned.meters);
      meterNumbers.push(...planned.meterNumbers);
    });

    const stale = loc.staleCube === undefined ? undefined : locationCubes[loc.staleCube];
    if (stale?.lastSeenAt) {
      specials.staleCube = {
        serial: stale.serial,
        locationName: loc.publicName,
        lastSeenAt: iso(stale.lastSeenAt.getTime()),
        meterNumbers: loc.meters.flatMap((m, k) => (m.cube === loc.staleCube ? [firstNumbers[k] ?? ''] : [])),
      };
    }
    sites.push({ publicName: loc.publicName, timeZone: loc.timeZone, clientEmail, meterNumbers });
  });

  const { gap, rollover, exchange, staleCube, faultyMeter, inactiveMeter, solar } = specials;
  if (!gap || !rollover || !exchange || !staleCube || !faultyMeter || !inactiveMeter || !solar) {
    throw new Error('demo content: a special case has no meter to play it');
  }
  const bookmarks = demoBookmarks(input, rollover);
  let readings = 0;
  let estimatedReadings = 0;
  for (const m of meters) {
    readings += m.readings.readAtMs.length + (m.exportReadings?.readAtMs.length ?? 0);
    for (const q of m.readings.quality) if (q === QUALITY_ESTIMATED) estimatedReadings += 1;
  }
  const users = input.users.map((u) => ({ ...u, createdAt: new Date(startMs - 30 * DAY_MS) }));
  const summary: DemoSummary = {
    seed,
    months,
    from: iso(startMs),
    now: iso(nowMs),
    users: users.length,
    locations: locations.length,
    userLocations: userLocations.length,
    accessPoints: accessPoints.length,
    cubes: cubes.length,
    meters: meters.length,
    readings,
    estimatedReadings,
    bookmarks: bookmarks.length,
    sites,
    dstChanges: dstChangesOf(startMs, nowMs),
    gap,
    rollover,
    exchange,
    staleCube,
    faultyMeter,
    inactiveMeter,
    ctMeters: specials.ctMeters,
    estimated: { meterNumbers: [...specials.estimatedMeters], readings: estimatedReadings },
    solar,
  };
  return {
    locations,
    tariffs,
    alertRules,
    users,
    userLocations,
    devices: [...accessPoints, ...cubes, ...meterDevices],
    meters,
    bookmarks,
    summary,
  };
}
