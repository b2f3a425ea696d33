import type { AuditList } from '@cm/contracts/admin.ts';
import { Role } from '@cm/contracts/enums.ts';
import type { TFunction } from 'i18next';
import { devicePriorityLabels, deviceStatusLabels, toPriorityId } from '@/components/device-status.ts';
import { formatNumber, formatZonedDateTime } from '@/lib/format.ts';

type AuditEntry = AuditList['items'][number];

/** Detail keys that hold ids of locations or devices, and the kind of name each id has. */
const ID_KEYS: Record<string, 'location' | 'device'> = {
  locationId: 'location',
  locationIds: 'location',
  parentId: 'device',
  cubeId: 'device',
  fromCubeId: 'device',
  toCubeId: 'device',
};

/** What a failed sign-in says instead of the detail (the sentence names the address and the reason). */
const SAID_IN_SENTENCE: Partial<Record<string, readonly string[]>> = {
  'user.sign-in-failed': ['email', 'reason'],
};

/** How a detail's values read: the reader's language, number format and time zone. */
export interface DetailFormat {
  t: TFunction;
  locale: string;
  timeZone: string;
}

/** Device type numbers (spec §3) as the check page names them. */
const DEVICE_TYPE_KEYS: Record<number, string> = { 1: 'accessPoint', 2: 'cube', 3: 'meter' };

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** One value in words: names for ids, types, priorities, roles and statuses; dates in the reader's zone. */
function valueText(
  key: string,
  value: unknown,
  names: Readonly<Record<string, string>>,
  f: DetailFormat,
): string {
  const { t, locale } = f;
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return t(value ? 'admin.audit.yes' : 'admin.audit.no');
  const kind = ID_KEYS[key];
  if (kind && (typeof value === 'number' || Array.isArray(value)))
    return (Array.isArray(value) ? value : [value])
      .map((id: unknown) => names[`${kind}:${String(id)}`] ?? String(id))
      .join(', ');
  if (key === 'type' && typeof value === 'number')
    return t(`check.deviceType.${DEVICE_TYPE_KEYS[value] ?? 'unknown'}`);
  if (key === 'priority' && typeof value === 'number')
    return t(devicePriorityLabels[toPriorityId(value)].key);
  if (key === 'role' && typeof value === 'number')
    return t(value === Role.Admin ? 'role.admin' : value === Role.Client ? 'role.client' : String(value));
  if (key === 'status' && typeof value === 'string' && value in deviceStatusLabels)
    return t(deviceStatusLabels[value as keyof typeof deviceStatusLabels].key);
  if (key === 'windows' && Array.isArray(value))
    return t('admin.tariffs.windowCount', { count: value.length });
  if (typeof value === 'number') return formatNumber(value, locale);
  if (typeof value === 'string')
    return ISO_INSTANT.test(value) ? formatZonedDateTime(value, locale, f.timeZone) : value;
  if (Array.isArray(value))
    return value.every((item) => typeof item !== 'object' || item === null)
      ? value.map((item) => valueText('', item, names, f)).join(', ')
      : t('admin.audit.items', { count: value.length });
  return Object.entries(value as Record<string, unknown>)
    .map(([inner, innerValue]) =>
      t('admin.audit.fieldValue', {
        field: fieldLabel(inner, t),
        value: valueText(inner, innerValue, names, f),
      }),
    )
    .join(', ');
}

/** A detail key in the reader's language ("parentId" → "Parent device", « Appareil parent »). */
function fieldLabel(key: string, t: TFunction): string {
  return t(`admin.audit.field.${key}`, {
    defaultValue: key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase(),
  });
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * An audit entry's detail as lines a person reads (issue 34.9): each field by its name in the
 * reader's language with its value in words; an edit as "field: before → after" for what changed.
 * Ids of locations and devices read as their names; long values are cut, never the labels.
 */
export function auditFields(
  detail: unknown,
  f: DetailFormat,
  names: Readonly<Record<string, string>> = {},
  omit: readonly string[] = [],
  maxValue = 80,
): string[] {
  if (detail === null || detail === undefined) return [];
  if (typeof detail !== 'object' || Array.isArray(detail)) return [valueText('', detail, names, f)];
  const record = detail as Record<string, unknown>;
  const line = (key: string, text: string) =>
    f.t('admin.audit.fieldValue', { field: fieldLabel(key, f.t), value: cut(text, maxValue) });
  const { before, changes } = record;
  if (isRecord(before) && isRecord(changes))
    return Object.entries(changes)
      .filter(([key, value]) => JSON.stringify(before[key]) !== JSON.stringify(value))
      .map(([key, value]) =>
        line(key, `${valueText(key, before[key], names, f)} → ${valueText(key, value, names, f)}`),
      );
  return Object.entries(record)
    .filter(([key]) => !omit.includes(key))
    .map(([key, value]) => line(key, valueText(key, value, names, f)));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The entry's detail in words, without what its sentence already says. */
export function entryDetail(entry: AuditEntry, f: DetailFormat): string[] {
  return auditFields(entry.detail, f, entry.names, SAID_IN_SENTENCE[entry.action] ?? []);
}

/** Who acted: a person's or key's name, else what is known of them. */
function auditActor(entry: AuditEntry, t: TFunction): string {
  if (entry.actorName !== null) return entry.actorName;
  if (entry.actorUserId !== null) return t('admin.audit.actorUser', { id: entry.actorUserId });
  if (entry.actorApiKeyId !== null) return t('admin.audit.actorApiKey', { id: entry.actorApiKeyId });
  return t(entry.action === 'user.sign-in-failed' ? 'admin.audit.actorNobody' : 'admin.audit.actorSystem');
}

const textOf = (detail: unknown, key: string) =>
  typeof detail === 'object' && detail !== null && key in detail
    ? String((detail as Record<string, unknown>)[key])
    : '';

/** The entry as a sentence in the reader's language: "Dana Whitfield disabled Rita Reviewer". */
export function auditSentence(entry: AuditEntry, t: TFunction): string {
  const values = {
    actor: auditActor(entry, t),
    target: entry.targetName ?? entry.targetId ?? '',
    email: textOf(entry.detail, 'email'),
    reason: t(`admin.audit.signInFailure.${textOf(entry.detail, 'reason')}`, {
      defaultValue: textOf(entry.detail, 'reason'),
    }),
    action: entry.action,
  };
  return t(`admin.audit.sentence.${entry.action}`, {
    ...values,
    defaultValue: t('admin.audit.sentence.other', values),
  });
}
