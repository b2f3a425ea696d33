import { z } from 'zod';
import { apiKeyScopes, deviceStatuses, roleIds } from './enums.ts';
import { importPresets } from './import-mapping.ts';
import { reconciliationSchema } from './reconciliation.ts';
import { optionalTextParam, textParam } from './text.ts';

// Administration, data in/out and device ingestion (issue 6). Every /api/admin/* call needs an
// administrator; /api/ingest/* needs an API key with scope `ingest` and no user.

/** Largest page of any admin list. */
export const MAX_PAGE_SIZE = 100;
/** Shortest password an administrator or a user may set (how hard to guess: password-policy.ts). */
export const MIN_PASSWORD_LENGTH = 10;
/** Longest: any character counts, spaces included, and nothing is cut. */
export const MAX_PASSWORD_LENGTH = 1024;
/** Most readings one ingestion batch may carry. */
export const MAX_INGEST_BATCH = 5000;
/** Most rejected lines an import report lists one by one (the count is always exact). */
export const MAX_REPORTED_LINES = 1000;

/**
 * How a number parameter is read. A JSON body carries JSON numbers: `"2"` is refused with 400
 * naming the parameter. A query string or path carries text only, so there the text is read as a number.
 */
const fromBody = (message: string) => z.number({ message });
const fromUrl = (message: string) => z.coerce.number({ message });
type NumberSource = typeof fromBody | typeof fromUrl;

const positiveId = (param: string, from: NumberSource = fromBody) =>
  from(`${param} must be a positive whole number.`)
    .int(`${param} must be a positive whole number.`)
    .positive(`${param} must be a positive whole number.`)
    .max(2_147_483_647, `${param} is too large.`);

const booleanParam = (param: string) =>
  z.enum(['true', 'false'], { message: `${param} must be true or false.` }).transform((v) => v === 'true');

const roleSchema = z.union(
  roleIds.map((id) => z.literal(id)),
  { message: 'role must be 1 (Admin) or 2 (Client).' },
);

/** A new password: at least MIN_PASSWORD_LENGTH characters. */
export const passwordSchema = (param: string) =>
  z
    .string({ message: `${param} is required.` })
    .min(MIN_PASSWORD_LENGTH, `${param} must be at least ${MIN_PASSWORD_LENGTH} characters.`)
    .max(MAX_PASSWORD_LENGTH, `${param} is at most ${MAX_PASSWORD_LENGTH} characters.`);

/** `page` (from 1) and `pageSize` (1 … MAX_PAGE_SIZE, default 20) of a list query. */
export const pageQuerySchema = z.object({
  page: positiveId('page', fromUrl).default(1),
  pageSize: positiveId('pageSize', fromUrl)
    .max(MAX_PAGE_SIZE, `pageSize must be at most ${MAX_PAGE_SIZE}.`)
    .default(20),
});

/** A page of a list: the items, the total number of matches and the page asked for. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });

/** `:id` path parameter. */
export const idParamsSchema = z.object({ id: positiveId('id', fromUrl) });
/** `:meterNumber` path parameter. */
export const meterNumberParamsSchema = z.object({ meterNumber: textParam('meterNumber', 64) });

// ---- Users ----

/** `GET /api/admin/users` query: search in email and name, filters, pagination. */
export const userListQuerySchema = pageQuerySchema.extend({
  search: z.string().trim().max(200, 'search is at most 200 characters.').optional(),
  role: fromUrl('role must be 1 (Admin) or 2 (Client).').pipe(roleSchema).optional(),
  disabled: booleanParam('disabled').optional(),
});
/** User list query. */
export type UserListQuery = z.infer<typeof userListQuerySchema>;

/** A user as administrators see it (never its password hash). */
export const adminUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  fullName: z.string(),
  role: roleSchema,
  isDisabled: z.boolean(),
  mustChangePassword: z.boolean(),
  /** ISO 8601 UTC, null when the user never signed in. */
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
  /** Locations a client may see (empty for administrators, who see every location). */
  locationIds: z.array(z.number().int()),
});
/** An administered user. */
export type AdminUser = z.infer<typeof adminUserSchema>;

/** `GET /api/admin/users` answer. */
export const userListSchema = pageOf(adminUserSchema);
/** A page of users. */
export type UserList = z.infer<typeof userListSchema>;

const emailSchema = z
  .string({ message: 'email is required.' })
  .trim()
  .min(1, 'email is required.')
  .max(254, 'email is at most 254 characters.')
  .email('email must be a valid email address.');

/** `POST /api/admin/users` body. `locationIds` only matter for clients. */
export const createUserBodySchema = z.object({
  email: emailSchema,
  fullName: textParam('fullName', 200),
  role: roleSchema,
  password: passwordSchema('password'),
  locationIds: z.array(positiveId('locationIds')).max(10_000).default([]),
});
/** New user. */
export type CreateUserBody = z.infer<typeof createUserBodySchema>;

/** `PATCH /api/admin/users/:id` body: any of the fields. */
export const updateUserBodySchema = z.object({
  email: emailSchema.optional(),
  fullName: textParam('fullName', 200).optional(),
  role: roleSchema.optional(),
  locationIds: z.array(positiveId('locationIds')).max(10_000).optional(),
});
/** User changes. */
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

/** `POST /api/admin/users/:id/reset-password` body: the temporary password, or none to have one generated. */
export const resetPasswordBodySchema = z.object({
  temporaryPassword: passwordSchema('temporaryPassword').optional(),
});
/** `POST /api/admin/users/:id/reset-password` answer: the temporary password, shown once. */
export const resetPasswordResultSchema = z.object({ temporaryPassword: z.string(), user: adminUserSchema });
/** A reset password's answer. */
export type ResetPasswordResult = z.infer<typeof resetPasswordResultSchema>;

/** `POST /api/auth/change-password` body: the current and the new password (at least MIN_PASSWORD_LENGTH characters). */
export const changePasswordBodySchema = z.object({
  currentPassword: z
    .string({ message: 'currentPassword is required.' })
    .min(1, 'currentPassword is required.')
    .max(1024),
  newPassword: passwordSchema('newPassword'),
});
/** Change-password body. */
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

// ---- Locations ----

/** `GET /api/admin/locations` query. */
export const locationListQuerySchema = pageQuerySchema.extend({
  search: z.string().trim().max(200, 'search is at most 200 characters.').optional(),
  includeArchived: booleanParam('includeArchived').optional(),
});
/** Location list query. */
export type LocationListQuery = z.infer<typeof locationListQuerySchema>;

/** A location as administrators see it. */
export const adminLocationSchema = z.object({
  id: z.number().int(),
  publicName: z.string(),
  address: z.string(),
  /** IANA time zone. */
  timeZone: z.string(),
  /** Day of the month a bill starts (1–28); `null` for calendar months. */
  billingDay: z.number().int().nullable(),
  archivedAt: z.string().nullable(),
  createdAt: z.string(),
  /** Meters currently installed (not removed) at the location. */
  meterCount: z.number().int(),
});
/** An administered location. */
export type AdminLocation = z.infer<typeof adminLocationSchema>;

/** `GET /api/admin/locations` answer. */
export const locationListSchema = pageOf(adminLocationSchema);
/** A page of locations. */
export type LocationList = z.infer<typeof locationListSchema>;

/** Day of the month a location's bill starts: 1–28 (every month has it), `null` for calendar months. */
const billingDaySchema = fromBody('billingDay must be a whole number from 1 to 28, or null.')
  .int('billingDay must be a whole number from 1 to 28, or null.')
  .min(1, 'billingDay must be a whole number from 1 to 28, or null.')
  .max(28, 'billingDay must be a whole number from 1 to 28, or null.')
  .nullable();

/** `POST /api/admin/locations` body. */
export const createLocationBodySchema = z.object({
  publicName: textParam('publicName', 200),
  address: z.string().trim().max(500, 'address is at most 500 characters.').default(''),
  /** IANA time zone such as `Europe/Berlin`. */
  timeZone: textParam('timeZone', 64),
  billingDay: billingDaySchema.optional(),
});
/** New location. */
export type CreateLocationBody = z.infer<typeof createLocationBodySchema>;

/** `PATCH /api/admin/locations/:id` body. */
export const updateLocationBodySchema = z.object({
  publicName: textParam('publicName', 200).optional(),
  address: z.string().trim().max(500, 'address is at most 500 characters.').optional(),
  timeZone: textParam('timeZone', 64).optional(),
  billingDay: billingDaySchema.optional(),
});
/** Location changes. */
export type UpdateLocationBody = z.infer<typeof updateLocationBodySchema>;

// ---- Devices and meters ----

/** Device type ids in the device list query: 1 AccessPoint, 2 Cube, 3 Meter. */
const deviceTypeQuerySchema = fromUrl('type must be 1, 2 or 3.')
  .int('type must be 1, 2 or 3.')
  .min(1, 'type must be 1, 2 or 3.')
  .max(3, 'type must be 1, 2 or 3.');
const prioritySchema = (from: NumberSource = fromBody) =>
  from('priority must be 1, 2, 3 or 4.')
    .int('priority must be 1, 2, 3 or 4.')
    .min(1, 'priority must be 1, 2, 3 or 4.')
    .max(4, 'priority must be 1, 2, 3 or 4.');
const statusSchema = z.enum(deviceStatuses, {
  message: 'status must be active, inactive, faulty or removed.',
});

/** `GET /api/admin/devices` query: the device table with filters. */
export const deviceListQuerySchema = pageQuerySchema.extend({
  locationId: positiveId('locationId', fromUrl).optional(),
  type: deviceTypeQuerySchema.optional(),
  priority: prioritySchema(fromUrl).optional(),
  status: statusSchema.optional(),
  search: z.string().trim().max(200, 'search is at most 200 characters.').optional(),
});
/** Device list query. */
export type DeviceListQuery = z.infer<typeof deviceListQuerySchema>;

/** A meter's name as people call it ("Apt C-101", "HVAC"): up to 60 characters, '' for none. */
export const meterLabelSchema = optionalTextParam('label', 60);

/** A meter's own fields, present on devices of type 3. */
export const adminMeterFieldsSchema = z.object({
  meterNumber: z.string(),
  /** What people call the meter ("Apt C-101", "HVAC"); '' when unnamed. */
  label: z.string(),
  /** The meter measures the location's whole supply; the location's other meters are sub-meters behind it. */
  mainSupply: z.boolean(),
  meterInd: z.number().int(),
  multiplier: z.number().int(),
  unit: z.string(),
  registerDigits: z.number().int(),
  intervalMinutes: z.number().int(),
  installedAt: z.string(),
  removedAt: z.string().nullable(),
  /** It has register readings: an exchange needs its final register (interval-only meters have none). */
  hasRegisterReadings: z.boolean(),
});

/** A meter's own fields. */
export type AdminMeterFields = z.infer<typeof adminMeterFieldsSchema>;

/** One row of the device table. */
export const adminDeviceSchema = z.object({
  id: z.number().int(),
  type: z.number().int(),
  serial: z.string(),
  parentId: z.number().int().nullable(),
  parentSerial: z.string().nullable(),
  locationId: z.number().int(),
  locationName: z.string(),
  priority: z.number().int(),
  priorityLabel: z.string(),
  status: statusSchema,
  lastSeenAt: z.string().nullable(),
  meter: adminMeterFieldsSchema.nullable(),
});
/** A device row. */
export type AdminDevice = z.infer<typeof adminDeviceSchema>;

/** `GET /api/admin/devices` answer. */
export const deviceListSchema = pageOf(adminDeviceSchema);
/** A page of devices. */
export type DeviceList = z.infer<typeof deviceListSchema>;

/** `GET /api/admin/locations/:id/meters` answer: the location's meters, current and removed. */
export const locationMetersSchema = z.object({ items: z.array(adminDeviceSchema) });

/** A device with its children: AccessPoint → Cubes → Meters. */
export type DeviceNode = AdminDevice & { children: DeviceNode[] };
/**
 * A node of the device tree. Recursive, so it carries an id in zod's registry: the OpenAPI
 * document then holds it once as the component `DeviceNode` and refers to it from itself.
 */
export const deviceNodeSchema: z.ZodType<DeviceNode> = adminDeviceSchema
  .extend({
    get children() {
      return z.array(deviceNodeSchema);
    },
  })
  .meta({ id: 'DeviceNode' });

/** `GET /api/admin/locations/:id/devices/tree` answer. Devices whose parent is missing are roots too. */
export const deviceTreeSchema = z.object({ locationId: z.number().int(), roots: z.array(deviceNodeSchema) });
/** A location's device tree. */
export type DeviceTree = z.infer<typeof deviceTreeSchema>;

/** `POST /api/admin/devices` body: an AccessPoint (type 1, no parent) or a Cube (type 2, parent an AccessPoint). Meters are created with `POST /api/admin/meters`. */
export const createDeviceBodySchema = z.object({
  type: z.union([z.literal(1), z.literal(2)], {
    message: 'type must be 1 (AccessPoint) or 2 (Cube); create meters with /api/admin/meters.',
  }),
  serial: textParam('serial', 64),
  locationId: positiveId('locationId'),
  parentId: positiveId('parentId').nullable().default(null),
  priority: prioritySchema().default(1),
  status: statusSchema.default('active'),
});
/** New AccessPoint or Cube. */
export type CreateDeviceBody = z.infer<typeof createDeviceBodySchema>;

/** `PATCH /api/admin/devices/:id` body. */
export const updateDeviceBodySchema = z.object({
  serial: textParam('serial', 64).optional(),
  parentId: positiveId('parentId').nullable().optional(),
  priority: prioritySchema().optional(),
  status: statusSchema.optional(),
});
/** Device changes. */
export type UpdateDeviceBody = z.infer<typeof updateDeviceBodySchema>;

const meterIndSchema = z
  .number({ message: 'meterInd must be a whole number of at least 1.' })
  .int('meterInd must be a whole number of at least 1.')
  .min(1, 'meterInd must be a whole number of at least 1.')
  .max(9999, 'meterInd must be at most 9999.');
const multiplierSchema = z
  .number({ message: 'multiplier must be a whole number of at least 1.' })
  .int('multiplier must be a whole number of at least 1.')
  .min(1, 'multiplier must be a whole number of at least 1.')
  .max(1_000_000, 'multiplier must be at most 1000000.');
/** Digits of the register's whole part: it wraps to 0 at 10^digits (at most 9, so values stay exact to 10^-6). */
const registerDigitsSchema = z
  .number({ message: 'registerDigits must be a whole number from 3 to 9.' })
  .int('registerDigits must be a whole number from 3 to 9.')
  .min(3, 'registerDigits must be a whole number from 3 to 9.')
  .max(9, 'registerDigits must be a whole number from 3 to 9.');
/** The longest nominal time between a meter's readings: a billing period, 31 days. */
export const MAX_METER_INTERVAL_MINUTES = 44_640;
/** Nominal time between readings, from 1 minute to a billing period (44,640 minutes = 31 days). */
const intervalMinutesSchema = z
  .number({ message: 'intervalMinutes must be a whole number from 1 to 44640 (31 days).' })
  .int('intervalMinutes must be a whole number from 1 to 44640 (31 days).')
  .min(1, 'intervalMinutes must be a whole number from 1 to 44640 (31 days).')
  .max(MAX_METER_INTERVAL_MINUTES, 'intervalMinutes must be a whole number from 1 to 44640 (31 days).');
/** An ISO 8601 instant with an offset (`2026-03-01T00:00:00Z`, `2026-03-01T01:00:00+01:00`). */
export const instantSchema = (param: string) =>
  z.iso.datetime({
    offset: true,
    message: `${param} must be an ISO 8601 date-time with offset, such as 2026-03-01T00:00:00Z.`,
  });
/** A register value as the meter shows it, in its unit (kWh), at most to the thousandth. */
const registerSchema = (param: string) =>
  z
    .number({ message: `${param} must be a number.` })
    .min(0, `${param} must not be negative.`)
    .max(1e12, `${param} is too large.`);

/** `POST /api/admin/meters` body. */
export const createMeterBodySchema = z.object({
  meterNumber: textParam('meterNumber', 64),
  label: meterLabelSchema.default(''),
  mainSupply: z.boolean({ message: 'mainSupply must be true or false.' }).default(false),
  /** Defaults to the meter number. */
  serial: textParam('serial', 64).optional(),
  locationId: positiveId('locationId'),
  cubeId: positiveId('cubeId').nullable().default(null),
  meterInd: meterIndSchema,
  multiplier: multiplierSchema.default(1),
  registerDigits: registerDigitsSchema.default(6),
  intervalMinutes: intervalMinutesSchema.default(15),
  installedAt: instantSchema('installedAt'),
  priority: prioritySchema().default(1),
  status: statusSchema.default('active'),
});
/** New meter. */
export type CreateMeterBody = z.infer<typeof createMeterBodySchema>;

/** `PATCH /api/admin/meters/:meterNumber` body. */
export const updateMeterBodySchema = z.object({
  meterNumber: textParam('meterNumber', 64).optional(),
  /** '' clears it. */
  label: meterLabelSchema.optional(),
  mainSupply: z.boolean({ message: 'mainSupply must be true or false.' }).optional(),
  meterInd: meterIndSchema.optional(),
  multiplier: multiplierSchema.optional(),
  registerDigits: registerDigitsSchema.optional(),
  intervalMinutes: intervalMinutesSchema.optional(),
  priority: prioritySchema().optional(),
  status: statusSchema.optional(),
});
/** Meter changes. */
export type UpdateMeterBody = z.infer<typeof updateMeterBodySchema>;

/** `POST /api/admin/meters/:meterNumber/move` body: the Cube to hang the meter under (same location), or null. */
export const moveMeterBodySchema = z.object({ cubeId: positiveId('cubeId').nullable() });

/**
 * `POST /api/admin/meters/:meterNumber/exchange` body. The old meter is closed at `at` with its
 * final register; the new one takes over the location and meterInd from `at` with its start register.
 */
export const exchangeMeterBodySchema = z.object({
  at: instantSchema('at'),
  /** The old meter's register at `at`, in kWh as it shows it; omitted for a meter with interval data only. */
  finalRegister: registerSchema('finalRegister').optional(),
  newMeterNumber: textParam('newMeterNumber', 64),
  /** The new meter's register at `at`, in kWh as it shows it. */
  newStartRegister: registerSchema('newStartRegister'),
  newSerial: textParam('newSerial', 64).optional(),
  /** Defaults to the old meter's value. */
  newMultiplier: multiplierSchema.optional(),
  newRegisterDigits: registerDigitsSchema.optional(),
});
/** Meter exchange. */
export type ExchangeMeterBody = z.infer<typeof exchangeMeterBodySchema>;

/** `POST /api/admin/meters/:meterNumber/exchange` answer. */
export const exchangeResultSchema = z.object({ oldMeter: adminDeviceSchema, newMeter: adminDeviceSchema });
/** An exchange's answer: the closed meter and its successor. */
export type ExchangeResult = z.infer<typeof exchangeResultSchema>;

// ---- API keys ----

/** An API key as listed: never the key itself, only its first characters. */
export const adminApiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(apiKeyScopes)),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** The key this web app itself runs on: revoking it would sign every browser out, so it is refused. */
  isWebApp: z.boolean(),
});
/** A listed API key. */
export type AdminApiKey = z.infer<typeof adminApiKeySchema>;

/** `GET /api/admin/api-keys` answer. */
export const apiKeyListSchema = z.object({ items: z.array(adminApiKeySchema) });

/** `POST /api/admin/api-keys` body. */
export const createApiKeyBodySchema = z.object({
  name: textParam('name', 100),
  scopes: z
    .array(z.enum(apiKeyScopes, { message: 'scopes may only hold web, read and ingest.' }))
    .min(1, 'scopes must name at least one of web, read, ingest.')
    .max(3, 'scopes must name at most three scopes.'),
});
/** New API key. */
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

/** `POST /api/admin/api-keys` answer: the full key, shown this once (only its SHA-256 is stored). */
export const createdApiKeySchema = z.object({ key: z.string(), apiKey: adminApiKeySchema });
/** A created API key, with the key itself. */
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

// ---- Audit log ----

/** What the audit log records; `user.sign-in` and `user.sign-in-failed` are written by every sign-in. */
export const auditActions = [
  'user.sign-in',
  'user.sign-in-failed',
  'user.create',
  'user.update',
  'user.disable',
  'user.enable',
  'user.reset-password',
  'user.change-password',
  'location.create',
  'location.update',
  'location.archive',
  'location.restore',
  'tariff.create',
  'tariff.delete',
  'alert-rule.create',
  'alert-rule.delete',
  'webhook.create',
  'webhook.delete',
  'device.create',
  'device.update',
  'meter.create',
  'meter.update',
  'meter.move',
  'meter.exchange',
  'api-key.create',
  'api-key.revoke',
  'connect-app.create',
  'connect-app.suspend',
  'connect-app.resume',
  'connect-app.remove',
  'connect-grant.create',
  'connect-grant.revoke',
  'readings.import',
  'readings.ingest',
  'import-job.upload',
  'import-job.cancel',
  'import-mapping.save',
  'import-mapping.delete',
  'series.create',
  'series.import',
  'location.carbon-series',
] as const;

/** Why a sign-in failed, as `user.sign-in-failed` records it. */
export const signInFailures = ['password', 'unknownEmail', 'disabled'] as const;

const auditInstant = (param: string) =>
  z.iso.datetime({
    offset: true,
    message: `${param} must be an instant with an offset, e.g. 2026-03-01T00:00:00+01:00.`,
  });

/** `GET /api/admin/audit` query: entries from `from` (inclusive) to `to` (exclusive), by actor, action and target. */
export const auditListQuerySchema = pageQuerySchema.extend({
  targetType: z.string().trim().max(40).optional(),
  targetId: z.string().trim().max(100).optional(),
  from: auditInstant('from').optional(),
  to: auditInstant('to').optional(),
  actorUserId: positiveId('actorUserId', fromUrl).optional(),
  action: z.enum(auditActions, { message: 'action is not one the audit log records.' }).optional(),
});
/** Audit list query. */
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

/** One audit entry: who changed what, when. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorUserId: z.number().int().nullable(),
  actorApiKeyId: z.number().int().nullable(),
  /** The acting user's name (full name, else e-mail) or API key's name; null for the system or a failed sign-in. */
  actorName: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  /** The target's name today: a user's, a location's public name, a device's serial or meter number, a key's name. */
  targetName: z.string().nullable(),
  detail: z.unknown(),
  /** Names of what the detail refers to by id, keyed `location:12`, `device:34`, `user:5`. */
  names: z.record(z.string(), z.string()),
});
/** `GET /api/admin/audit` answer, newest first. */
export const auditListSchema = pageOf(auditEntrySchema);
/** A page of audit entries. */
export type AuditList = z.infer<typeof auditListSchema>;

// ---- Import ----

/**
 * File formats an import reads: Check Meter's CSV (documented columns), Green Button ESPI Atom XML,
 * any delimited file through a mapping or a preset (import-mapping.ts), and AEMO's MDFF: NEM12
 * (interval data) and NEM13 (register reads); `blocks`, a CSV of a block per day and direction
 * (SCE's "Energy Usage Information").
 */
export const importFormats = ['csv', 'espi', 'delimited', 'nem12', 'nem13', 'blocks'] as const;
export type ImportFormat = (typeof importFormats)[number];

/**
 * `POST /api/admin/imports` query. The file is the raw request body (`Content-Type: text/csv`
 * or `application/atom+xml`). CSV columns: `meter_number,timestamp,register_kwh` or
 * `meter_number,timestamp,interval_kwh`, optional `time_zone` and `quality` (0 measured, 1 estimated);
 * or CM's export, `meter_number,channel,kind,start,end,value_kwh,quality`.
 * A timestamp without offset is local time in the row's `time_zone` or the `timeZone` option;
 * an interval row's timestamp is the END of its interval. ESPI files need `meterNumber`.
 */
export const importQuerySchema = z.object({
  /** By default (`auto`) the content decides, never the file's name or Content-Type. */
  format: z
    .enum([...importFormats, 'auto'], {
      message: 'format must be auto, csv, espi, delimited, nem12, nem13 or blocks.',
    })
    .optional(),
  /** Read the file as a utility's layout (import-mapping.ts). */
  preset: z.enum(importPresets, { message: `preset must be one of ${importPresets.join(', ')}.` }).optional(),
  timeZone: textParam('timeZone', 64).optional(),
  meterNumber: textParam('meterNumber', 64).optional(),
  /** When true, one rejected line stores nothing. */
  strict: booleanParam('strict').default(false),
  /**
   * When true, a value different from the one stored at the same meter, channel and instant is a
   * correction: it replaces the stored one, which is kept in the value's history (who, when, why).
   * When false (the default) it is a conflict: reported and never stored.
   */
  corrections: booleanParam('corrections').default(false),
});

/** A line of the file that was not stored, and why. */
export const rejectedLineSchema = z.object({
  line: z.number().int(),
  /** Why, in English (API consumers, the rejected-lines CSV). */
  reason: z.string(),
  /** Why, as a code of `import-reasons.ts` and its values, for the web app to word (reports from before it have none). */
  code: z.string().optional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
/** A rejected line. */
export type RejectedLine = z.infer<typeof rejectedLineSchema>;

/** A line whose instant already holds a different stored value: reported, never overwritten (unless corrections). */
export const conflictLineSchema = z.object({
  line: z.number().int(),
  meterNumber: z.string(),
  at: z.string(),
  stored: z.number(),
  incoming: z.number(),
});

/** What an import did. Counts are readings; `rejected` lists at most MAX_REPORTED_LINES lines. */
export const importReportSchema = z.object({
  format: z.enum(importFormats),
  /** False when nothing was stored: the file was refused, or strict mode met a rejected line. */
  committed: z.boolean(),
  /** Why nothing was stored, when committed is false. */
  refusal: z.string().nullable(),
  rowsRead: z.number().int(),
  inserted: z.number().int(),
  /** Readings already stored with the same value (a re-import changes nothing). */
  unchanged: z.number().int(),
  /** Stored values replaced by the file's (corrections mode), their earlier values kept in their history. */
  corrected: z.number().int(),
  conflictCount: z.number().int(),
  conflicts: z.array(conflictLineSchema),
  rejectedCount: z.number().int(),
  rejected: z.array(rejectedLineSchema),
  /** How the file was read where it left something open (e.g. an ESPI ReadingType without accumulationBehaviour). */
  notes: z.array(z.string()),
  /** Where the meter now has registers and interval records of a channel over the file's time: how they agree. */
  reconciliation: z.array(reconciliationSchema).optional(),
});
/** An import report. */
export type ImportReport = z.infer<typeof importReportSchema>;

/** Answer of a refused import (HTTP 422): an error body with the report. */
export const importRefusedSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  report: importReportSchema,
});

// ---- Export ----

/** Export formats: CSV and Green Button ESPI Atom XML. */
export const exportFormats = ['csv', 'espi'] as const;

/** `GET /api/admin/exports/readings` query (every stored reading, docs/import-formats.md "Exports"). From/To are dates (local days) or instants with offset, as in the check API. */
export const exportQuerySchema = z.object({
  meterNumber: textParam('meterNumber', 64),
  From: textParam('From', 40),
  To: textParam('To', 40),
  format: z.enum(exportFormats, { message: 'format must be csv or espi.' }).default('csv'),
});
/** Export query. */
export type ExportQuery = z.infer<typeof exportQuerySchema>;

/**
 * `GET /api/CheckMeter/DownloadMyData` query: one of the caller's own meters, as Green Button ESPI
 * (registers and the energy per interval) unless `format=csv`.
 */
export const downloadMyDataQuerySchema = exportQuerySchema.extend({
  format: z.enum(exportFormats, { message: 'format must be csv or espi.' }).default('espi'),
});

// ---- Device ingestion ----

/** One reading sent by an AccessPoint or Cube. */
export const ingestReadingSchema = z.object({
  meterNumber: z.string().max(64),
  /** `import` (default) or `export`. */
  channel: z.enum(['import', 'export']).optional(),
  /** A register reading: the instant (ISO 8601 with offset) and the register as the meter shows it, in kWh. */
  readAt: z.string().max(40).optional(),
  register: z.number().optional(),
  /** An interval reading instead: its start and end (ISO 8601 with offset) and its energy in kWh (after the CT multiplier). */
  start: z.string().max(40).optional(),
  end: z.string().max(40).optional(),
  energy: z.number().optional(),
  /** 0 actual (default), 1 estimated, 2 substituted. */
  quality: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
});

/** `POST /api/ingest/readings` body: at most MAX_INGEST_BATCH readings. */
export const ingestBodySchema = z.object({
  /** When true, a value different from the stored one at the same instant replaces it (kept in its history). */
  corrections: z.boolean().optional(),
  readings: z
    .array(ingestReadingSchema)
    .min(1, 'readings must hold at least one reading.')
    .max(MAX_INGEST_BATCH, `readings holds at most ${MAX_INGEST_BATCH} readings per batch.`),
});
/** An ingestion batch. */
export type IngestBody = z.infer<typeof ingestBodySchema>;

/** What happened to each reading of a batch, in the order sent. */
export const ingestOutcomes = ['accepted', 'duplicate', 'corrected', 'rejected'] as const;

/** `POST /api/ingest/readings` answer. */
export const ingestResultSchema = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
  /** Stored values replaced (corrections mode), their earlier values kept in their history. */
  corrected: z.number().int(),
  rejected: z.number().int(),
  results: z.array(
    z.object({ index: z.number().int(), status: z.enum(ingestOutcomes), reason: z.string().optional() }),
  ),
});
/** An ingestion answer. */
export type IngestResult = z.infer<typeof ingestResultSchema>;
