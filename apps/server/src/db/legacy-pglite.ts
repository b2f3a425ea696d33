import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Db, SqlRunner } from './client.ts';
import { migrate } from './migrate.ts';

// Earlier versions kept the embedded database in $CM_DATA_DIR/pglite (PGlite, PostgreSQL compiled to
// WebAssembly, in CM's own process). On the first start of the embedded PostgreSQL server, such a
// folder is copied into it, table by table, and then kept beside it as pglite.imported: nobody's
// data is left behind by the change of engine.

// Derived or short-lived: rebuilt on demand (chunks), or ended by the move (sessions, throttling).
const NOT_COPIED = new Set(['reading_chunks', 'sessions', 'login_throttle', 'roles']);
// Readings are copied a meter at a time, so that no single copy holds a large site in memory.
const READINGS = new Set(['register_readings', 'interval_readings']);

/** An earlier version's PGlite database, as far as migrations and copying need it. */
export async function openLegacyPglite(
  dir: string,
): Promise<SqlRunner & Pick<Db, 'transaction' | 'close'> & { pglite: PGlite }> {
  const pglite = await PGlite.create({ dataDir: dir });
  const runner = (target: Pick<PGlite, 'query'>): SqlRunner => ({
    async query<T extends object>(text: string, params: readonly unknown[] = []) {
      return (await target.query<T>(text, [...params])).rows;
    },
    async queryArrays(text: string, params: readonly unknown[] = []) {
      return (await target.query<unknown[]>(text, [...params], { rowMode: 'array' })).rows;
    },
    copyFrom() {
      throw new Error('not used on the legacy database');
    },
  });
  return {
    pglite,
    ...runner(pglite),
    transaction: (work) => pglite.transaction((tx) => work(runner(tx))),
    close: () => pglite.close(),
  };
}

async function copyTable(source: PGlite, target: SqlRunner, table: string, where = ''): Promise<void> {
  const result = await source.query(
    `COPY (SELECT * FROM ${table} ${where}) TO '/dev/blob' WITH (FORMAT csv)`,
  );
  const text = result.blob ? await result.blob.text() : '';
  if (!text) return;
  await target.copyFrom(`COPY ${table} FROM STDIN WITH (FORMAT csv)`, [text]);
}

/**
 * Copies the earlier version's embedded database in `dataDir`/pglite into `db` (an empty, migrated
 * database), when there is one. Answers the number of readings copied, or undefined.
 */
export async function importLegacyPglite(dataDir: string, db: Db): Promise<number | undefined> {
  const dir = path.join(dataDir, 'pglite');
  if (!existsSync(path.join(dir, 'PG_VERSION'))) return undefined;
  const legacy = await openLegacyPglite(dir);
  let readings = 0;
  try {
    // Same schema on both sides first: the legacy database may be some migrations behind.
    await migrate(legacy);
    // Parent tables only: a partitioned table's rows are read through it.
    const tables = (
      await legacy.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
      )
    ).map((row) => row.name);
    const span = (
      await legacy.query<{ lo: Date | null; hi: Date | null }>(
        `SELECT least((SELECT min(read_at) FROM register_readings), (SELECT min(start_at) FROM interval_readings)) AS lo,
                greatest((SELECT max(read_at) FROM register_readings), (SELECT max(end_at) FROM interval_readings)) AS hi`,
      )
    )[0];
    const meterIds = (await legacy.query<{ id: number }>('SELECT device_id AS id FROM meters')).map(
      (m) => m.id,
    );
    await db.transaction(async (tx) => {
      // Rows arrive in table order, not in the order foreign keys need: checked at commit instead.
      await tx.query('SET CONSTRAINTS ALL DEFERRED');
      await tx.query("SET LOCAL session_replication_role = 'replica'");
      if (span?.lo && span.hi)
        await tx.query('SELECT cm_ensure_reading_partitions($1, $2)', [span.lo, span.hi]);
      for (const table of tables) {
        if (NOT_COPIED.has(table)) continue;
        if (!READINGS.has(table)) await copyTable(legacy.pglite, tx, table);
        else
          for (const id of meterIds)
            await copyTable(legacy.pglite, tx, table, `WHERE meter_id = ${Number(id)}`);
      }
      // Every sequence continues after the highest id copied.
      await tx.query(
        `DO $$ DECLARE s record; BEGIN
           FOR s IN SELECT seq.relname AS seq, tab.relname AS tab, att.attname AS col
                    FROM pg_depend d JOIN pg_class seq ON seq.oid = d.objid AND seq.relkind = 'S'
                    JOIN pg_class tab ON tab.oid = d.refobjid
                    JOIN pg_attribute att ON att.attrelid = tab.oid AND att.attnum = d.refobjsubid
                    JOIN pg_namespace n ON n.oid = seq.relnamespace AND n.nspname = 'public'
           LOOP
             EXECUTE format('SELECT setval(%L, coalesce((SELECT max(%I) FROM %I), 0) + 1, false)', s.seq, s.col, s.tab);
           END LOOP;
         END $$`,
      );
      await tx.query(
        "SELECT setval('meter_readings_versions', coalesce((SELECT max(readings_version) FROM meters), 0) + 1, false)",
      );
      readings =
        (
          await tx.query<{ n: number }>(
            'SELECT (SELECT count(*) FROM register_readings) + (SELECT count(*) FROM interval_readings) AS n',
          )
        )[0]?.n ?? 0;
    });
  } finally {
    await legacy.close();
  }
  await rename(dir, `${dir}.imported`);
  return readings;
}
