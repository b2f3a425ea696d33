import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { SqlRunner } from '../../db/client.ts';
import { findActiveAppByClientId } from './connect-apps.queries.ts';
import {
  consumeArtefact,
  destroyArtefact,
  destroyArtefactsOfGrant,
  findArtefact,
  findArtefactByUid,
  upsertArtefact,
} from './oauth-artefacts.queries.ts';

/** oidc-provider's storage in PostgreSQL (oauth_artefacts): every process of CM sees the same codes and tokens. */
class ArtefactAdapter implements Adapter {
  constructor(
    private readonly db: SqlRunner,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    await upsertArtefact(this.db, this.model, id, { ...payload }, expiresIn);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return findArtefact(this.db, this.model, id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return findArtefactByUid(this.db, this.model, uid);
  }

  // Device flow only, which CM does not offer.
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    await consumeArtefact(this.db, this.model, id);
  }

  async destroy(id: string): Promise<void> {
    await destroyArtefact(this.db, this.model, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await destroyArtefactsOfGrant(this.db, this.model, grantId);
  }
}

/**
 * The apps of connect_apps as OAuth clients: only active ones (a suspended or removed app cannot
 * start or finish an authorization, nor refresh a token). `client_secret` is the secret's SHA-256,
 * which the provider compares with the hash of what the app sends (oauth-provider.ts).
 */
class AppClientAdapter implements Adapter {
  constructor(private readonly db: SqlRunner) {}

  async find(clientId: string): Promise<AdapterPayload | undefined> {
    const app = await findActiveAppByClientId(this.db, clientId);
    if (!app) return undefined;
    return {
      client_id: app.client_id,
      client_secret: app.secret_hash,
      client_name: app.name,
      redirect_uris: app.redirect_uris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      // The provider's only key (oauth-provider.ts); CM issues no ID tokens.
      id_token_signed_response_alg: 'ES256',
    };
  }

  // Clients are registered by administrators (connect.routes.ts), never through the provider.
  async upsert(): Promise<void> {}
  async findByUid(): Promise<undefined> {
    return undefined;
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
  async consume(): Promise<void> {}
  async destroy(): Promise<void> {}
  async revokeByGrantId(): Promise<void> {}
}

/** The adapter factory oidc-provider is given. */
export function oauthAdapter(db: SqlRunner): (model: string) => Adapter {
  return (model) => (model === 'Client' ? new AppClientAdapter(db) : new ArtefactAdapter(db, model));
}
