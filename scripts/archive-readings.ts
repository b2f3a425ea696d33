// Takes old months out of the readings tables for archiving: `npm run archive-readings -- 2024-01`
// detaches every month before January 2024 (docs/scaling.md). Each month's readings partitions
// become tables of their own, printed here to dump (pg_dump -t) and then drop; their chunks (a
// cache) are dropped. Runs against DATABASE_URL, or the embedded database while CM is stopped.
import { openDatabase } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { readings } from '../apps/server/src/modules/readings/index.ts';

const month = process.argv[2] ?? '';
const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
if (!match) {
  console.error(
    'Usage: npm run archive-readings -- YYYY-MM   (every month before this one leaves the readings tables)',
  );
  process.exit(2);
}
const before = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
const db = await openDatabase(loadConfig());
try {
  const detached = await readings.archiveBefore(db, before);
  if (detached.length === 0) console.log(`No readings before ${month}: nothing to archive.`);
  else {
    console.log(`Detached ${detached.length} tables of readings before ${month}; dump them, then drop them:`);
    for (const name of detached) console.log(`  ${name}`);
  }
} finally {
  await db.close();
}
