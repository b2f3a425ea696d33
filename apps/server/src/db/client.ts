import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFromQuery } from 'pg-copy-streams';
import * as schema from './schema.ts';

/** The Drizzle handle. */
export type Orm = PgDatabase<PgQueryResultHKT, typeof schema>;

/** What a query helper needs: plain SQL with bound parameters, rows as objects or as arrays. */
export interface SqlRunner {
  /** `prepare` names a statement the PostgreSQL server plans once per connection: for the hot queries that run on every request. */
  query<T extends object>(
    text: string,
    params?: readonly unknown[],
    options?: { prepare?: string },
  ): Promise<T[]>;
  /** Rows as arrays: the fast path for long result sets (readings). */
  queryArrays(text: string, params?: readonly unknown[]): Promise<unknown[][]>;
  /** `COPY … FROM STDIN` fed from `source`: the bulk path of imports, so a large file is never held in memory. */
  copyFrom(text: string, source: Iterable<string> | AsyncIterable<string>): Promise<void>;
}

/** A pool of connections to CM's database: the embedded PostgreSQL server, or one named by DATABASE_URL. */
export interface Db extends SqlRunner {
  readonly kind: DatabaseKind;
  /** The embedded server's state: `restarting` while CM starts it again after it died (db/embedded-postgres.ts). */
  serverState?(): 'running' | 'restarting' | 'stopped';
  readonly orm: Orm;
  /** Runs `work` in one transaction: everything it does is kept, or nothing. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotice` with the payload of each NOTIFY on `channel`, whichever process sent it, over a
   * connection of its own. After a lost connection it reconnects and calls `onNotice(null)`: notices
   * may have been missed meanwhile. Answers how to stop listening.
   */
  listen(channel: string, onNotice: (payload: string | null) => void): Promise<() => Promise<void>>;
  /**
   * Opens every connection of the pool now and runs `statements` on each: the catalog loading a
   * connection's first query would otherwise pay in a client's request. Connections then stay open.
   */
  warmUp(statements: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** `embedded`: the PostgreSQL server CM runs itself (db/embedded-postgres.ts); `postgres`: DATABASE_URL. */
export type DatabaseKind = 'embedded' | 'postgres';

const INT8_OID = 20;
const NUMERIC_OID = 1700;
// Register values and counts fit well inside 2^53, so int8 and numeric come back as numbers.
const toNumber = (value: string) => Number(value);

export interface PostgresOptions {
  url: string;
  poolSize: number;
  /** Statements running longer are cancelled by the server. */
  statementTimeoutMs: number;
  kind?: DatabaseKind;
}

/** Connects to a PostgreSQL server through a pool. */
export async function openPostgres(options: PostgresOptions): Promise<Db> {
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID || oid === NUMERIC_OID
        ? toNumber
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    // One slow request must not starve the others: the server cancels statements that run too long.
    statement_timeout: options.statementTimeoutMs,
    connectionTimeoutMillis: 5_000,
    // Idle connections stay open (pg's default closes them after 10 s): a new connection's first
    // queries on the partitioned readings tables load their partitions' catalog, 5–20 ms that a
    // client visiting now and then would pay on every visit. They do not keep a script alive.
    idleTimeoutMillis: 0,
    allowExitOnIdle: true,
    types,
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor one checked out between two queries (the embedded server killed then): its holder's next
  // query fails, and the pool drops it when released.
  pool.on('connect', (client) => client.on('error', () => {}));
  const orm = drizzlePostgres({ client: pool, schema, casing: 'snake_case' });
  const runner = (target: pg.Pool | pg.PoolClient): SqlRunner => ({
    async query<T extends object>(
      text: string,
      params: readonly unknown[] = [],
      options: { prepare?: string } = {},
    ) {
      const result = await target.query<T>({
        text,
        values: [...params],
        ...(options.prepare ? { name: options.prepare } : {}),
      });
      return result.rows;
    },
    async queryArrays(text: string, params: readonly unknown[] = []) {
      const result = await target.query<unknown[]>({ text, values: [...params], rowMode: 'array' });
      return result.rows;
    },
    async copyFrom(text: string, source: Iterable<string> | AsyncIterable<string>) {
      if (!('release' in target)) {
        // A COPY needs one connection for its whole stream: take one from the pool.
        const client = await target.connect();
        try {
          await pipeline(Readable.from(source), client.query(copyFromQuery(text)));
        } finally {
          client.release();
        }
        return;
      }
      await pipeline(Readable.from(source), target.query(copyFromQuery(text)));
    },
  });
  return {
    kind: options.kind ?? 'postgres',
    orm: orm as unknown as Orm,
    ...runner(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(runner(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    listen: (channel, onNotice) => listenOn(options.url, channel, onNotice),
    async warmUp(statements) {
      const clients = await Promise.all(Array.from({ length: options.poolSize }, () => pool.connect()));
      try {
        await Promise.all(
          clients.map(async (client) => {
            for (const statement of statements) await client.query(statement);
          }),
        );
      } finally {
        for (const client of clients) client.release();
      }
    },
    close: () => pool.end(),
  };
}

const RECONNECT_MS = 1_000;

async function listenOn(
  url: string,
  channel: string,
  onNotice: (payload: string | null) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  // Drops `lostClient` (once) and tries a new connection a little later.
  const reconnect = (lostClient: pg.Client) => {
    if (stopped || client !== lostClient) return;
    client = undefined;
    lostClient.end().catch(() => {});
    retry = setTimeout(() => {
      connect().then(
        () => onNotice(null),
        () => {},
      );
    }, RECONNECT_MS);
    retry.unref();
  };
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    client = next;
    next.on('error', () => reconnect(next));
    next.on('end', () => reconnect(next));
    next.on('notification', (message) => {
      if (message.channel === channel) onNotice(message.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      reconnect(next);
      throw error;
    }
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
