import type { AuditList } from '@cm/contracts/admin.ts';
import type { TFunction } from 'i18next';

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

/**
 * An audit entry's detail as one line: `key: value` pairs for a flat object (what the server
 * writes), JSON for anything deeper; ids of locations and devices as their names where the entry
 * carries them ("locationIds: Harbour View, Marina Quay"). Long values are cut, never the keys.
 */
export function auditDetail(
  detail: unknown,
  names: Readonly<Record<string, string>> = {},
  maxValue = 80,
  omit: readonly string[] = [],
): string {
  if (detail === null || detail === undefined) return '';
  if (typeof detail !== 'object') return String(detail);
  if (Array.isArray(detail)) return JSON.stringify(detail);
  return Object.entries(detail)
    .filter(([key]) => !omit.includes(key))
    .map(([key, value]) => {
      const kind = ID_KEYS[key];
      const named = (id: unknown) => (kind ? (names[`${kind}:${String(id)}`] ?? String(id)) : String(id));
      const text =
        kind && (typeof value === 'number' || Array.isArray(value))
          ? (Array.isArray(value) ? value : [value]).map(named).join(', ')
          : typeof value === 'string'
            ? value
            : (JSON.stringify(value) ?? '');
      return `${key}: ${text.length > maxValue ? `${text.slice(0, maxValue - 1)}…` : text}`;
    })
    .join(' · ');
}

/** The entry's detail without what its sentence already says. */
export function entryDetail(entry: AuditEntry): string {
  return auditDetail(entry.detail, entry.names, 80, SAID_IN_SENTENCE[entry.action] ?? []);
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
