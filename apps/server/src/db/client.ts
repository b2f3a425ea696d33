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
  readonly orm: Orm;
  /** Runs `work` in one transaction: everything it does is kept, or nothing. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
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
    types,
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
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
    close: () => pool.end(),
  };
}
