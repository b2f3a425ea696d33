import { Role } from '@cm/contracts/enums.ts';
import { openPostgres, type Db } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { packQueuedMonths } from '../../apps/server/src/modules/readings/index.ts';
import { insertLocation, insertMeter, linkUserToLocation } from '../../apps/server/src/test/factories.ts';
import { insertUser } from '../../apps/server/src/test/test-app.ts';
import { benchDatabase } from './postgres.ts';

export interface Site {
  url: string;
  admin: { email: string; password: string };
  clients: Array<{ email: string; password: string; meterNumbers: string[]; locationNames: string[] }>;
  meterNumbers: string[];
}

export interface SiteShape {
  clients: number;
  locationsPerClient: number;
  metersPerLocation: number;
  /** Days of 15-minute readings before `readingsEnd` for every meter. */
  days: number;
}

export const READINGS_END = '2026-01-01T00:00:00Z';

/**
 * A fresh PostgreSQL database `name` with a small site: an admin, clients each linked to their
 * locations, meters with 15-minute readings generated in SQL. Answers the database URL and logins.
 */
export async function prepareSite(name: string, shape: SiteShape): Promise<Site> {
  const { url } = await benchDatabase(name, { recreate: true });
  const db = await openPostgres({ url, poolSize: 4, statementTimeoutMs: 600_000 });
  try {
    await migrate(db);
    const admin = { email: 'admin@bench.cm', password: 'Bench!admin-01' };
    await insertUser(db, { ...admin, role: Role.Admin });
    const clients: Site['clients'] = [];
    const meterNumbers: string[] = [];
    for (let c = 0; c < shape.clients; c += 1) {
      const client = {
        email: `client${c}@bench.cm`,
        password: `Bench!client-${c}`,
        meterNumbers: [] as string[],
        locationNames: [] as string[],
      };
      const userId = await insertUser(db, client);
      for (let l = 0; l < shape.locationsPerClient; l += 1) {
        const name = `Site ${c}-${l}`;
        const locationId = await insertLocation(db, name, l % 2 === 0 ? 'Europe/Berlin' : 'America/New_York');
        await linkUserToLocation(db, userId, locationId);
        client.locationNames.push(name);
        for (let m = 0; m < shape.metersPerLocation; m += 1) {
          const meterNumber = `LM-${c}-${l}-${m + 1}`;
          const id = await insertMeter(db, {
            meterNumber,
            locationId,
            meterInd: m + 1,
            installedAt: new Date(Date.parse(READINGS_END) - (shape.days + 30) * 86_400_000),
          });
          await fillReadings(db, id, shape.days);
          client.meterNumbers.push(meterNumber);
          meterNumbers.push(meterNumber);
        }
      }
      clients.push(client);
    }
    // Packed now, as the server would in its first minutes: measured requests do not run beside it.
    await packQueuedMonths(db, Number.MAX_SAFE_INTEGER);
    await db.query('VACUUM ANALYZE register_readings');
    return { url, admin, clients, meterNumbers };
  } finally {
    await db.close();
  }
}

async function fillReadings(db: Db, meterId: number, days: number) {
  await db.query(`SELECT cm_ensure_reading_partitions($1::timestamptz - make_interval(days => $2 + 1), $1)`, [
    READINGS_END,
    days,
  ]);
  await db.query(
    `INSERT INTO register_readings (meter_id, channel, read_at, value_micro)
     SELECT $1, 1, $2::timestamptz - i * interval '15 minutes', 1000::int8 * (5000000 + (96 * $3 - i) * (50 + $1 % 40))
     FROM generate_series(0, 96 * $3) AS i`,
    [meterId, READINGS_END, days],
  );
}
