import pg from 'pg';

export const POSTGRES_ADMIN_URL =
  process.env.CM_BENCH_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

/** URL of a database on the benchmark server, created when `create` and missing. */
export async function benchDatabase(
  name: string,
  options: { recreate: boolean },
): Promise<{ url: string; existed: boolean }> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    let existed = found.rowCount === 1;
    if (existed && options.recreate) {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      existed = false;
    }
    if (!existed) await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    return { url: url.toString(), existed };
  } finally {
    await admin.end();
  }
}
