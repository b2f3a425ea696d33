import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import type { Db } from '../../apps/server/src/db/client.ts';
import { createApiKey } from '../../apps/server/src/modules/api-keys/api-keys.service.ts';
import { TEST_SECRETS } from '../../apps/server/src/test/test-app.ts';

const SECRET = 'bench-secret-bench-secret-bench-secret-01';

/**
 * CM in this process on `db` for a benchmark, listening on 127.0.0.1: signed in as the bench's
 * admin (admin@bench.cm, which the bench inserts), with each answer's server time (arrival → last
 * byte handed to the socket) pushed to `serverTimes`. `before` adds routes before the app is ready.
 */
export async function startBenchApp(db: Db, before?: (app: Awaited<ReturnType<typeof buildApp>>) => void) {
  const { key } = await createApiKey(db, 'Bench', ['web']);
  const config = loadConfig({ LOG_LEVEL: 'silent', CM_WEB_DIST: '/nonexistent' });
  const app = await buildApp({ config, db, webApiKey: key, jwtSecret: SECRET, secrets: TEST_SECRETS });
  before?.(app);
  const serverTimes: number[] = [];
  app.addHook('onResponse', async (_request, reply) => {
    serverTimes.push(reply.elapsedTime);
  });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { [API_KEY_HEADER]: key },
    payload: { email: 'admin@bench.cm', password: 'Bench!admin1' },
  });
  const headers = { [API_KEY_HEADER]: key, authorization: `Bearer ${login.json<{ token: string }>().token}` };
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, headers, address, serverTimes };
}
