import type { PublicUser } from '@cm/contracts/auth.ts';
import type { ApiKeyScope } from '@cm/contracts/enums.ts';

/** Who is calling, once the token is checked. */
export interface AuthContext {
  user: PublicUser;
  sessionId: string;
}

/** A key as the request pipeline knows it once checked. */
export interface ApiKeyIdentity {
  id: number;
  name: string;
  scopes: ApiKeyScope[];
}

/** Who made a change: a signed-in user (through an API key), or a device's API key alone. */
export interface Actor {
  userId: number | null;
  apiKeyId: number | null;
}
