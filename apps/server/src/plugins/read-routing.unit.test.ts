import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { currentReadIntent, type ReplicaSet } from '../db/replicas.ts';
import { readRouting } from './read-routing.ts';

describe('read routing', () => {
  it('lets a replica answer only the GET routes marked replicaReads, whatever their URL', async () => {
    const app = Fastify();
    // One replica; the primary's WAL position is all the plugin asks of the set besides its size.
    const replicas = { size: 1, walPosition: async () => 0x10n } as unknown as ReplicaSet;
    await app.register(readRouting, { replicas });
    const allowed = () => ({ replicaAllowed: currentReadIntent()?.replicaAllowed ?? null });
    app.get('/api/CheckMeter/GetMeterInfo', { config: { replicaReads: true } }, async () => allowed());
    app.get('/api/CheckMeter/Unmarked', async () => allowed());
    app.get('/api/admin/report', { config: { replicaReads: true } }, async () => allowed());
    app.post('/api/CheckMeter/Marked', { config: { replicaReads: true } }, async () => allowed());
    await app.ready();
    const ask = async (method: 'GET' | 'POST', url: string) =>
      (await app.inject({ method, url })).json<{ replicaAllowed: boolean | null }>().replicaAllowed;
    try {
      expect(await ask('GET', '/api/CheckMeter/GetMeterInfo')).toBe(true);
      expect(await ask('GET', '/api/admin/report')).toBe(true);
      expect(await ask('GET', '/api/CheckMeter/Unmarked')).toBe(false);
      expect(await ask('POST', '/api/CheckMeter/Marked')).toBe(false);
    } finally {
      await app.close();
    }
  });
});
