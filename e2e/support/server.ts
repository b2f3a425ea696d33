import { inject } from 'vitest';

/** The suite's running server (started once by global-setup.ts); `stop` is a no-op here because the suite owns it. */
export async function startServer(): Promise<{ url: string; stop(): Promise<void> }> {
  return { url: inject('cmBaseUrl'), stop: async () => {} };
}

/** Demo logins created by the seed (also printed at start and listed in the README). */
export const demoUsers = {
  admin: { email: 'admin@demo.cm', password: 'Admin!2026' },
  clientA: { email: 'client.a@demo.cm', password: 'ClientA!2026' },
  clientB: { email: 'client.b@demo.cm', password: 'ClientB!2026' },
} as const;
