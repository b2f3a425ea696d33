import type { Config } from '../config.ts';
import { openPostgres, type Db } from './client.ts';
import { ReplicaSet, type ReplicaOptions } from './replicas.ts';

// How often each replica's replayed position is read: a caller's next read after its write may go
// to a replica from the first check after the replica replayed it.
const POLL_MS = 500;

/** The replicas DATABASE_REPLICA_URLS names (none for the embedded database), not checked yet. */
export async function openReplicas(
  config: Config,
  primary: Db,
  onDown?: ReplicaOptions['onDown'],
): Promise<ReplicaSet> {
  const { database } = config;
  if (database.kind !== 'postgres') return new ReplicaSet(primary, [], { maxLagMs: 0, pollMs: POLL_MS });
  const replicas = await Promise.all(
    database.replicas.urls.map(async (url, index) => ({
      name: `replica-${index + 1}`,
      db: await openPostgres({
        url,
        poolSize: database.poolSize,
        statementTimeoutMs: database.statementTimeoutMs,
      }),
    })),
  );
  return new ReplicaSet(primary, replicas, { maxLagMs: database.replicas.maxLagMs, pollMs: POLL_MS, onDown });
}
