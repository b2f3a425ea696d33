import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from './client.ts';

const SEGMENT_BYTES = 16 * 1024 * 1024;
const dir = await mkdtemp(path.join(os.tmpdir(), 'cm-wal-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function walBytes(dataDir: string): Promise<number> {
  const walDir = path.join(dataDir, 'pg_wal');
  const files = (await readdir(walDir)).filter((name) => /^[0-9A-F]{24}$/.test(name));
  const sizes = await Promise.all(files.map(async (name) => (await stat(path.join(walDir, name))).size));
  return sizes.reduce((sum, size) => sum + size, 0);
}

describe('embedded database folder', () => {
  it('keeps no write-ahead log for reuse after a big transaction and a checkpoint', async () => {
    const db = await openPglite(dir);
    try {
      // About 65 MB of WAL in one transaction, as the demo seed writes (more) at first start.
      await db.transaction(async (tx) => {
        await tx.query('CREATE TABLE filler (id int, pad text)');
        await tx.query("INSERT INTO filler SELECT i, repeat('x', 500) FROM generate_series(1, 100000) AS i");
      });
      await db.query('CHECKPOINT');
      // The segment in use and at most one more; recycling would keep the big transaction's ones.
      expect(await walBytes(dir)).toBeLessThanOrEqual(2 * SEGMENT_BYTES);
    } finally {
      await db.close();
    }
  }, 120_000);
});
