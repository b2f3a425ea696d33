import type { AccessChannel } from '@cm/contracts/access-log.ts';
import { Role } from '@cm/contracts/enums.ts';
import type { ApiKeyIdentity, AuthContext } from '../access/index.ts';

/** Who read a meter's data, as the log names them (the name as it is at the time of the read). */
export interface Reader {
  channel: AccessChannel;
  name: string;
  userId: number | null;
  apiKeyId: number | null;
}

const personName = (auth: AuthContext) => auth.user.fullName.trim() || auth.user.email;

/**
 * Who reads through the API, when the log must know: an API key other than the web app's (the
 * key's name and its user's), or an administrator; null for a meter's own customer in the web app
 * (the owner reading their own data is no access to report).
 */
export function readerOf(auth: AuthContext | null, apiKey: ApiKeyIdentity | null): Reader | null {
  if (apiKey && !apiKey.scopes.includes('web'))
    return {
      channel: 'api-key',
      name: auth ? `${apiKey.name} (${personName(auth)})` : apiKey.name,
      userId: auth?.user.id ?? null,
      apiKeyId: apiKey.id,
    };
  if (auth && auth.user.role === Role.Admin)
    return { channel: 'admin', name: personName(auth), userId: auth.user.id, apiKeyId: null };
  return null;
}

/** Who takes a file of the data (an export, Download My Data): always logged, the owner too. */
export function fileReaderOf(auth: AuthContext, apiKey: ApiKeyIdentity | null): Reader {
  const name =
    apiKey && !apiKey.scopes.includes('web') ? `${personName(auth)} (${apiKey.name})` : personName(auth);
  return { channel: 'export', name, userId: auth.user.id, apiKeyId: apiKey?.id ?? null };
}
