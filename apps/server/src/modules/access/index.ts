// The access floor: who is calling and what they may see. Every module and the plugins may import
// it; it imports no module and no plugin.
export type { Actor, ApiKeyIdentity, AuthContext } from './caller.ts';
export { locationVisible, scopeOf, type Scope } from './scope.ts';
