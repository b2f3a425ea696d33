/** Role ids are part of the spec (§3, §9): 1 = Admin, 2 = Client. */
export const Role = { Admin: 1, Client: 2 } as const;
/** A role id. */
export type RoleId = (typeof Role)[keyof typeof Role];
/** Every role id, in order. */
export const roleIds = [Role.Admin, Role.Client] as const;

/** Device types (spec §3): AccessPoint = 1, Cube = 2, Meter = 3. */
export const DeviceType = { AccessPoint: 1, Cube: 2, Meter: 3 } as const;

/** Device priority (spec §3): New = 1, High = 2, Medium = 3, Not Yet Open = 4. */
export const DevicePriority = { New: 1, High: 2, Medium: 3, NotYetOpen: 4 } as const;
/** A device priority id. */
export type DevicePriorityId = (typeof DevicePriority)[keyof typeof DevicePriority];

/** The spec's labels for each priority value (label / value table in spec §3). */
export const devicePriorityLabels: Record<DevicePriorityId, string> = {
  1: 'New',
  2: 'High',
  3: 'Medium',
  4: 'Not Yet Open',
};

/** Operational status of a device. */
export const deviceStatuses = ['active', 'inactive', 'faulty', 'removed'] as const;
/** A device status. */
export type DeviceStatus = (typeof deviceStatuses)[number];

/** API key scopes: `web` for the browser app, `read` for read-only integrations, `ingest` for devices. */
export const apiKeyScopes = ['web', 'read', 'ingest'] as const;
/** An API key scope. */
export type ApiKeyScope = (typeof apiKeyScopes)[number];

/** The header every /api request carries (spec §7; its name is ours). */
export const API_KEY_HEADER = 'X-API-Key';

const priorityLabelByValue = new Map<number, string>(
  Object.entries(devicePriorityLabels).map(([value, label]) => [Number(value), label]),
);
/** The spec label of a priority value; unknown values read as 'New'. */
export function devicePriorityLabel(value: number): string {
  return priorityLabelByValue.get(value) ?? 'New';
}
