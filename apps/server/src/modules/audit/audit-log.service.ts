import type { AuditList, AuditListQuery } from '@cm/contracts/admin.ts';
import type { Db } from '../../db/client.ts';
import { listAudit, type AuditRow } from './audit.queries.ts';

/*
 * The audit log as administrators read it (issue 17.13): each entry with the names of who acted
 * and on what, as they are called today, and of the locations and devices its detail names by id,
 * so that the page can say "Dana Whitfield disabled Rita Reviewer" in the reader's language. The
 * write side (audit.service.ts) stays free of these lookups: every module records through it.
 */

type NameKind = 'user' | 'apiKey' | 'location' | 'device' | 'connectApp';

/** The kind of name a target type's id refers to (a meter's target id is its number already). */
const TARGET_KINDS: Partial<Record<string, NameKind>> = {
  user: 'user',
  location: 'location',
  device: 'device',
  'api-key': 'apiKey',
  'connect-app': 'connectApp',
};

/** Ids the entry names, by kind: its actor, its target, and the ids in its detail. */
function referencesOf(row: AuditRow): Array<[NameKind, number]> {
  const refs: Array<[NameKind, number]> = [];
  if (row.actor_user_id !== null) refs.push(['user', row.actor_user_id]);
  if (row.actor_api_key_id !== null) refs.push(['apiKey', row.actor_api_key_id]);
  const target = Number(row.target_id);
  const targetKind = TARGET_KINDS[row.target_type];
  if (targetKind && Number.isInteger(target) && target > 0) refs.push([targetKind, target]);
  const detail = row.detail;
  if (typeof detail === 'object' && detail !== null) {
    const ids = (value: unknown) =>
      (Array.isArray(value) ? value : [value]).filter(Number.isInteger) as number[];
    for (const [key, value] of Object.entries(detail)) {
      if (key === 'locationId' || key === 'locationIds')
        for (const id of ids(value)) refs.push(['location', id]);
      if (key === 'parentId' || key === 'cubeId' || key === 'fromCubeId' || key === 'toCubeId')
        for (const id of ids(value)) refs.push(['device', id]);
    }
  }
  return refs;
}

/**
 * Today's names of the ids of one kind, from the module that owns them (users, API keys,
 * locations, devices): handed in by app.ts, so that the audit log, which every module writes to,
 * imports none of them.
 */
export type NameLookup = (db: Db, ids: number[]) => Promise<ReadonlyArray<{ id: number; name: string }>>;

export class AuditLogService {
  constructor(
    private readonly db: Db,
    private readonly lookups: Record<NameKind, NameLookup>,
  ) {}

  /** A page of the audit log, newest first, filtered as asked. */
  async list(query: AuditListQuery): Promise<AuditList> {
    const rows = await listAudit(this.db, {
      targetType: query.targetType || undefined,
      targetId: query.targetId || undefined,
      from: query.from === undefined ? undefined : new Date(query.from),
      to: query.to === undefined ? undefined : new Date(query.to),
      actorUserId: query.actorUserId,
      action: query.action,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    const names = await this.namesFor(rows);
    const nameOf = (kind: NameKind, id: number | null) =>
      id === null ? null : (names.get(`${kind}:${id}`) ?? null);
    return {
      items: rows.map((row) => {
        const targetKind = TARGET_KINDS[row.target_type];
        return {
          id: row.id,
          at: row.at.toISOString(),
          actorUserId: row.actor_user_id,
          actorApiKeyId: row.actor_api_key_id,
          actorName: nameOf('user', row.actor_user_id) ?? nameOf('apiKey', row.actor_api_key_id),
          action: row.action,
          targetType: row.target_type,
          targetId: row.target_id,
          // A meter is named by its number, its target id; readings have no single target.
          targetName:
            row.target_type === 'meter'
              ? row.target_id
              : targetKind && row.target_id !== null
                ? nameOf(targetKind, Number(row.target_id))
                : null,
          detail: row.detail,
          names: Object.fromEntries(
            referencesOf(row).flatMap(([kind, id]) => {
              const name = names.get(`${kind}:${id}`);
              return name === undefined ? [] : [[`${kind}:${id}`, name]];
            }),
          ),
        };
      }),
      total: rows[0]?.total ?? 0,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  /** Every name the rows refer to, looked up once per kind, keyed `kind:id`. */
  private async namesFor(rows: AuditRow[]): Promise<Map<string, string>> {
    const wanted: Record<NameKind, Set<number>> = {
      user: new Set(),
      apiKey: new Set(),
      location: new Set(),
      device: new Set(),
      connectApp: new Set(),
    };
    for (const row of rows) for (const [kind, id] of referencesOf(row)) wanted[kind].add(id);
    const names = new Map<string, string>();
    for (const kind of Object.keys(wanted) as NameKind[]) {
      for (const { id, name } of await this.lookups[kind](this.db, [...wanted[kind]]))
        names.set(`${kind}:${id}`, name);
    }
    return names;
  }
}
