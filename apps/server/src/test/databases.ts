import pg from 'pg';

// Databases on the suite's PostgreSQL server, made and dropped through its superuser URL. Every
// name starts with `cm_test_`, so that a run can drop what a killed run left behind.

export const TEST_DATABASE_PREFIX = 'cm_test_';

async function asAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server `adminUrl` names. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates database `name`, empty or as a copy of `template`. */
export function createDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  return asAdmin(adminUrl, async (client) => {
    await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  });
}

export function dropDatabase(adminUrl: string, name: string): Promise<void> {
  return asAdmin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/** Test databases of earlier runs that were killed before they could drop them. */
export function dropLeftovers(adminUrl: string): Promise<void> {
  return asAdmin(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
      [TEST_DATABASE_PREFIX],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  });
}
