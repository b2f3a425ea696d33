import { createHash, randomBytes } from 'node:crypto';
import {
  connectDataKinds,
  type ConnectApp,
  type CreatedConnectApp,
  type createConnectAppBodySchema,
} from '@cm/contracts/connect.ts';
import type { z } from 'zod';
import type { Db, SqlRunner } from '../../db/client.ts';
import { conflict, notFound } from '../../http-error.ts';
import type { Actor } from '../access/index.ts';
import { recordAudit } from '../audit/index.ts';
import {
  findConnectApp,
  findConnectAppNames,
  insertConnectApp,
  listConnectApps,
  setConnectAppStatus,
  type ConnectAppRow,
} from './connect-apps.queries.ts';
import { revokeGrants } from './connect-grants.queries.ts';

const APP_NOT_FOUND = 'App not found.';

/** A client secret's SHA-256: the secret is 32 random bytes, so no slow hash is needed. */
const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

function presentApp(row: ConnectAppRow): ConnectApp {
  return {
    id: row.id,
    name: row.name,
    contact: row.contact,
    clientId: row.client_id,
    redirectUris: row.redirect_uris,
    dataKinds: connectDataKinds.filter((kind) => row.data_kinds.includes(kind)),
    notificationUri: row.notification_uri,
    status: row.status === 'suspended' ? 'suspended' : 'active',
    createdAt: row.created_at.toISOString(),
    suspendedAt: row.suspended_at?.toISOString() ?? null,
  };
}

/** Apps' names by id, for the audit log (handed to it by app.ts). */
export const connectAppNames = (db: SqlRunner, ids: number[]) => findConnectAppNames(db, ids);

/** Third-party apps (administrators): register (the client secret is answered once), suspend, resume, remove. */
export class ConnectAppsService {
  constructor(private readonly db: Db) {}

  async list(): Promise<{ items: ConnectApp[] }> {
    return { items: (await listConnectApps(this.db)).map(presentApp) };
  }

  async create(actor: Actor, body: z.output<typeof createConnectAppBodySchema>): Promise<CreatedConnectApp> {
    const clientId = `cmapp_${randomBytes(12).toString('hex')}`;
    const clientSecret = `cmcs_${randomBytes(32).toString('base64url')}`;
    const row = await this.db.transaction(async (tx) => {
      const inserted = await insertConnectApp(tx, {
        ...body,
        clientId,
        secretHash: hashSecret(clientSecret),
      });
      await recordAudit(tx, actor, {
        action: 'connect-app.create',
        targetType: 'connect-app',
        targetId: inserted.id,
        detail: {
          name: body.name,
          clientId,
          redirectUris: body.redirectUris,
          dataKinds: body.dataKinds,
          notificationUri: body.notificationUri,
        },
      });
      return inserted;
    });
    return { app: presentApp(row), clientSecret };
  }

  /** Suspends an app: it may not be asked for consent until resumed. */
  async suspend(actor: Actor, id: number): Promise<ConnectApp> {
    await this.change(actor, id, 'suspended');
    return this.get(id);
  }

  /** Lets a suspended app be asked for consent again. */
  async resume(actor: Actor, id: number): Promise<ConnectApp> {
    await this.change(actor, id, 'active');
    return this.get(id);
  }

  /** Removes an app: never listed or asked again (kept, unlisted, for the logs' names). */
  async remove(actor: Actor, id: number): Promise<void> {
    await this.change(actor, id, 'removed');
  }

  private async get(id: number): Promise<ConnectApp> {
    const row = await findConnectApp(this.db, id);
    if (!row) throw notFound(APP_NOT_FOUND);
    return presentApp(row);
  }

  private async change(actor: Actor, id: number, status: 'active' | 'suspended' | 'removed'): Promise<void> {
    await this.db.transaction(async (tx) => {
      const app = await findConnectApp(tx, id, true);
      if (!app) throw notFound(APP_NOT_FOUND);
      if (app.status === status)
        throw conflict(
          status === 'suspended' ? 'This app is suspended already.' : 'This app is active already.',
        );
      await setConnectAppStatus(tx, id, status);
      // A suspended or removed app's grants end with it (the customer gives a new one after a resume).
      if (status !== 'active')
        await revokeGrants(tx, { appId: id }, status === 'suspended' ? 'app-suspended' : 'app-removed');
      const action = { active: 'resume', suspended: 'suspend', removed: 'remove' } as const;
      await recordAudit(tx, actor, {
        action: `connect-app.${action[status]}`,
        targetType: 'connect-app',
        targetId: id,
        detail: { name: app.name },
      });
    });
  }
}
