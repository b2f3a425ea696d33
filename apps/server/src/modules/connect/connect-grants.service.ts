import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import {
  connectDataKinds,
  MAX_GRANT_MONTHS,
  type AllowConsentBody,
  type ConnectDataKind,
  type ConnectGrant,
  type ConnectGrantList,
  type ConsentDone,
  type ConsentRequest,
} from '@cm/contracts/connect.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import { badRequest, notFound } from '../../http-error.ts';
import type { Actor, AuthContext } from '../access/index.ts';
import { recordAudit } from '../audit/index.ts';
import { findActiveAppByClientId } from './connect-apps.queries.ts';
import {
  findCustomerMeters,
  findGrant,
  findGrantByOidcId,
  insertGrant,
  listGrants,
  revokeGrants,
  type GrantRow,
} from './connect-grants.queries.ts';
import { purgeExpiredArtefacts } from './oauth-artefacts.queries.ts';
import { ESPI_RESOURCE, OAUTH_PATH } from './oauth-provider.ts';

const CONSENT_GONE = 'This request for consent has expired or does not exist: start again from the app.';
const GRANT_NOT_FOUND = 'Grant not found.';

const isDataKind = (kind: string): kind is ConnectDataKind =>
  connectDataKinds.some((known) => known === kind);

/** The kinds of data in a space-separated scope that the app is registered for, in the contract's order. */
function askedKinds(scope: unknown, registered: readonly string[]): ConnectDataKind[] {
  const asked = new Set(typeof scope === 'string' ? scope.split(' ') : []);
  return connectDataKinds.filter((kind) => asked.has(kind) && registered.includes(kind));
}

/** `months` calendar months after `from` (UTC; the 31st of a shorter month ends on its last day). */
function addMonths(from: Date, months: number): Date {
  const end = new Date(from);
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}

/**
 * oidc-provider's tokens take their lifetime (`expiresIn`, seconds) in their constructor
 * (lib/models/base_token.js); its type declarations list that for some tokens only, not Grant.
 */
type GrantWithLifetime = new (properties: {
  accountId: string;
  clientId: string;
  expiresIn: number;
}) => InstanceType<Provider['Grant']>;

function presentGrant(row: GrantRow): ConnectGrant {
  return {
    id: row.id,
    app: { id: row.app_id, name: row.app_name },
    user: { id: row.user_id, email: row.user_email },
    meterNumbers: row.meter_numbers,
    dataKinds: row.data_kinds.filter(isDataKind),
    from: row.data_from.toISOString(),
    until: row.until.toISOString(),
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
    revokedBy: row.revoked_by,
  };
}

const actorOf = (caller: AuthContext): Actor => ({ userId: caller.user.id, apiKeyId: null });

/**
 * Customers' consents (issue 37). The OAuth server sends the customer's browser to the consent page
 * with an interaction; the page asks this service what to show, then allows (a grant of the meters,
 * kinds and dates picked, bound to the provider's grant its tokens carry) or refuses; both answer
 * where the browser goes next. Grants are listed and revoked at once: their codes and tokens are
 * deleted, and the ESPI API checks the grant on every call.
 */
export class ConnectGrantsService {
  constructor(
    private readonly db: Db,
    private readonly provider: Provider,
    log: { error: (detail: object, message: string) => void },
  ) {
    // The provider ends a grant itself when a refresh token or a code is used twice: so does CM.
    provider.on('grant.revoked', (_ctx: unknown, grantId: string) => {
      this.endRevokedByProvider(grantId).catch((error: unknown) => {
        log.error({ err: error, grantId }, 'connect: a revoked grant could not be ended');
      });
    });
    // ESPI's token answer names the subscription the token reads: resourceURI, its Batch URI.
    provider.use(async (ctx: KoaContextWithOIDC, next) => {
      await next();
      const grantId = ctx.oidc?.entities.Grant?.jti;
      if (ctx.oidc?.route !== 'token' || ctx.status !== 200 || !grantId) return;
      const grant = await findGrantByOidcId(this.db, grantId);
      const body: unknown = ctx.body;
      if (!grant || typeof body !== 'object' || body === null) return;
      const base = ctx.oidc.issuer.slice(0, -OAUTH_PATH.length);
      Object.assign(body, { resourceURI: `${base}/espi/1_1/resource/Batch/Subscription/${grant.id}` });
    });
  }

  async consentRequest(caller: AuthContext, uid: string): Promise<ConsentRequest> {
    const { app, kinds } = await this.interactionOf(uid);
    const meters = await findCustomerMeters(this.db, caller.user.id);
    return {
      app: { name: app.name, contact: app.contact },
      dataKinds: kinds,
      meters: meters.map((meter) => ({ meterNumber: meter.meter_number, locationName: meter.location_name })),
      maxMonths: MAX_GRANT_MONTHS,
    };
  }

  async allow(caller: AuthContext, uid: string, body: AllowConsentBody): Promise<ConsentDone> {
    const { interaction, app, kinds } = await this.interactionOf(uid);
    if (kinds.length === 0) throw badRequest('The app asks for no kind of data it may read.');
    const mine = new Map(
      (await findCustomerMeters(this.db, caller.user.id)).map((meter) => [
        meter.meter_number,
        meter.device_id,
      ]),
    );
    const meterIds = body.meterNumbers.map((number) => mine.get(number));
    const unknown = body.meterNumbers.filter((_number, i) => meterIds[i] === undefined);
    if (unknown.length > 0)
      throw badRequest(
        `meterNumbers holds meters that are not yours: ${unknown.join(', ')}.`,
        'meterNumbers',
      );
    const now = new Date();
    const dataFrom = new Date(`${body.from}T00:00:00Z`);
    const until = addMonths(now, body.months);
    if (dataFrom >= until) throw badRequest('from must be before the grant ends.', 'from');
    const accountId = String(caller.user.id);
    // The provider's grant ends when the customer's does: past `until` no refresh token is honoured.
    const expiresIn = Math.ceil((until.getTime() - now.getTime()) / 1000);
    const grant = new (this.provider.Grant as GrantWithLifetime)({
      accountId,
      clientId: app.client_id,
      expiresIn,
    });
    grant.addResourceScope(ESPI_RESOURCE, kinds.join(' '));
    const oidcGrantId = await grant.save();
    await this.db.transaction(async (tx) => {
      const id = await insertGrant(tx, {
        appId: app.id,
        userId: caller.user.id,
        meterIds: meterIds.filter((meterId) => meterId !== undefined),
        dataKinds: kinds,
        dataFrom,
        until,
        oidcGrantId,
      });
      await recordAudit(tx, actorOf(caller), {
        action: 'connect-grant.create',
        targetType: 'connect-grant',
        targetId: id,
        detail: {
          app: app.name,
          appId: app.id,
          meterNumbers: body.meterNumbers,
          dataKinds: kinds,
          from: dataFrom.toISOString(),
          until: until.toISOString(),
        },
      });
    });
    interaction.result = { login: { accountId }, consent: { grantId: oidcGrantId } };
    return this.finish(interaction);
  }

  async refuse(uid: string): Promise<ConsentDone> {
    const { interaction } = await this.interactionOf(uid);
    interaction.result = { error: 'access_denied', error_description: 'The customer refused.' };
    return this.finish(interaction);
  }

  async listOwn(caller: AuthContext): Promise<ConnectGrantList> {
    return { items: (await listGrants(this.db, caller.user.id)).map(presentGrant) };
  }

  async listAll(): Promise<ConnectGrantList> {
    return { items: (await listGrants(this.db, null)).map(presentGrant) };
  }

  /** Ends a grant at once: the customer's own (404 for another's), or any for an administrator. */
  async revoke(caller: AuthContext, id: number, isAdmin: boolean): Promise<void> {
    const grant = await findGrant(this.db, id);
    if (!grant || (!isAdmin && grant.user_id !== caller.user.id)) throw notFound(GRANT_NOT_FOUND);
    // An administrator revoking their own grant as a customer does so as its customer.
    const by = isAdmin && grant.user_id !== caller.user.id ? 'admin' : 'customer';
    await this.db.transaction(async (tx) => {
      const ended = await revokeGrants(tx, { id }, by);
      if (ended.length > 0) await auditRevoke(tx, actorOf(caller), grant, by);
    });
  }

  /** Housekeeping: the OAuth server's expired codes, tokens and interactions. */
  purgeExpired(): Promise<number> {
    return purgeExpiredArtefacts(this.db);
  }

  private async endRevokedByProvider(oidcGrantId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const ended = await revokeGrants(tx, { oidcGrantId }, 'reuse');
      for (const grant of ended)
        await recordAudit(
          tx,
          { userId: null, apiKeyId: null },
          {
            action: 'connect-grant.revoke',
            targetType: 'connect-grant',
            targetId: grant.id,
            detail: { appId: grant.app_id, by: 'reuse' },
          },
        );
    });
  }

  private async interactionOf(uid: string) {
    const interaction = await this.provider.Interaction.find(uid);
    if (!interaction) throw notFound(CONSENT_GONE);
    const app = await findActiveAppByClientId(this.db, String(interaction.params.client_id ?? ''));
    if (!app) throw notFound(CONSENT_GONE);
    return { interaction, app, kinds: askedKinds(interaction.params.scope, app.data_kinds) };
  }

  private async finish(interaction: InstanceType<Provider['Interaction']>): Promise<ConsentDone> {
    const secondsLeft = interaction.exp - Math.floor(Date.now() / 1000);
    if (secondsLeft <= 0) throw notFound(CONSENT_GONE);
    await interaction.save(secondsLeft);
    return { redirectTo: interaction.returnTo };
  }
}

function auditRevoke(tx: SqlRunner, actor: Actor, grant: GrantRow, by: string) {
  return recordAudit(tx, actor, {
    action: 'connect-grant.revoke',
    targetType: 'connect-grant',
    targetId: grant.id,
    detail: { app: grant.app_name, appId: grant.app_id, customer: grant.user_email, by },
  });
}
