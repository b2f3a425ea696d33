import { describe, expect, it } from 'vitest';
import type { Db, SqlRunner } from './client.ts';
import {
  formatWalPosition,
  lagOf,
  parseWalPosition,
  ReplicaSet,
  runWithReadIntent,
  type ReadIntent,
} from './replicas.ts';

/**
 * A database that answers the two position queries and records every other statement; the real
 * thing, a PostgreSQL standby streaming from the primary, is exercised by `npm run drill:scale-out`.
 */
function fakeDb(
  name: string,
  state: { position: string; standby: boolean; down?: boolean },
  log: string[],
): Db {
  const query = async <T extends object>(text: string): Promise<T[]> => {
    if (state.down) throw Object.assign(new Error(`${name}: connection refused`), { code: 'ECONNREFUSED' });
    if (text.includes('pg_current_wal_lsn')) return [{ position: state.position }] as T[];
    if (text.includes('pg_is_in_recovery'))
      return [{ standby: state.standby, replayed: state.standby ? state.position : null }] as T[];
    log.push(`${name}: ${text}`);
    return [{ answeredBy: name }] as T[];
  };
  const runner: SqlRunner = {
    query,
    queryArrays: async (text) => (await query(text)).map((row) => Object.values(row)),
    copyFrom: async () => {},
  };
  return {
    kind: 'postgres',
    orm: undefined as never,
    ...runner,
    transaction: async (work) => work(runner),
    listen: async () => async () => {},
    warmUp: async () => {},
    close: async () => {},
  };
}

describe('WAL positions', () => {
  it('read and write as PostgreSQL does', () => {
    expect(parseWalPosition('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(formatWalPosition((0x16n << 32n) | 0xb374d848n)).toBe('16/B374D848');
    expect(parseWalPosition('0/0')).toBe(0n);
    for (const wrong of ['', '16', '16/', 'G/1', '1/123456789', null, undefined]) {
      expect(parseWalPosition(wrong)).toBeNull();
    }
  });

  it('measure a lag as the age of the oldest primary position not replayed yet', () => {
    const samples = [
      { at: 1_000, position: 100n },
      { at: 1_500, position: 200n },
      { at: 2_000, position: 300n },
    ];
    expect(lagOf(300n, samples, 2_100)).toBe(0);
    expect(lagOf(250n, samples, 2_100)).toBe(100);
    expect(lagOf(150n, samples, 2_100)).toBe(600);
    expect(lagOf(50n, samples, 2_100)).toBe(1_100);
  });
});

describe('read routing', () => {
  const setUp = async (replicaPosition: string) => {
    const log: string[] = [];
    const primaryState = { position: '0/300', standby: false };
    const replicaState = { position: replicaPosition, standby: true, down: false };
    const primary = fakeDb('primary', primaryState, log);
    const set = new ReplicaSet(primary, [{ name: 'replica-1', db: fakeDb('replica-1', replicaState, log) }], {
      maxLagMs: 60_000,
      pollMs: 60_000,
    });
    await set.start();
    const read = async (intent: ReadIntent) =>
      runWithReadIntent(intent, () => set.routed().query<{ answeredBy: string }>('SELECT 1'));
    return { set, read, replicaState, log };
  };

  it('sends the check page reads to a replica that has replayed the caller’s last write', async () => {
    const { set, read } = await setUp('0/300');
    const intent: ReadIntent = { replicaAllowed: true, after: 0x300n };
    expect(await read(intent)).toEqual([{ answeredBy: 'replica-1' }]);
    expect(intent.servedBy).toBe('replica-1');
    expect(set.status().replicas[0]).toMatchObject({ name: 'replica-1', state: 'ok', lagMs: 0, reads: 1 });
    await set.close();
  });

  it('keeps on the primary what is not allowed a replica, or must see a write the replica lacks', async () => {
    const { set, read } = await setUp('0/200');
    expect(await read({ replicaAllowed: false, after: 0n })).toEqual([{ answeredBy: 'primary' }]);
    const behind: ReadIntent = { replicaAllowed: true, after: 0x300n };
    expect(await read(behind)).toEqual([{ answeredBy: 'primary' }]);
    expect(behind.servedBy).toBe('primary');
    // Without a request (background work): the primary.
    expect(await set.routed().query('SELECT 1')).toEqual([{ answeredBy: 'primary' }]);
    // Transactions (writes, chunk building) are the primary's.
    expect(
      await runWithReadIntent({ replicaAllowed: true, after: 0n }, () =>
        set.routed().transaction((tx) => tx.query('SELECT 1')),
      ),
    ).toEqual([{ answeredBy: 'primary' }]);
    await set.close();
  });

  it('answers from the primary when the replica fails mid-way, and marks it down', async () => {
    const { set, read, replicaState } = await setUp('0/300');
    replicaState.down = true;
    const intent: ReadIntent = { replicaAllowed: true, after: 0n };
    expect(await read(intent)).toEqual([{ answeredBy: 'primary' }]);
    expect(intent.servedBy).toBe('primary');
    expect(set.status().replicas[0]).toMatchObject({
      state: 'down',
      problem: 'replica-1: connection refused',
    });
    // Down: not tried again until a check finds it back.
    expect(await read({ replicaAllowed: true, after: 0n })).toEqual([{ answeredBy: 'primary' }]);
    expect(set.status().primaryReads).toBe(2);
    await set.close();
  });
});
