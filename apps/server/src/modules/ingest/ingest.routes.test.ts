import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestResult } from '@cm/contracts/admin.ts';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import { createApiKey } from '../api-keys/api-keys.service.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import { insertDevice, insertLocation, insertMeter, insertReadings } from '../../test/factories.ts';

let t: TestApp;
let ingestKey: string;
let ingestKeyId: number;
let ids: { ap: number; cube: number; meter: number; other: number };

const send = (readings: unknown[], key = ingestKey) =>
  t.call('POST', '/api/ingest/readings', { body: { readings }, headers: { [API_KEY_HEADER]: key } });

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  const created = await createApiKey(t.db, 'Cube gateway', ['ingest']);
  ingestKey = created.key;
  ingestKeyId = created.row.id;
  const site = await insertLocation(t.db, 'Ingest site', 'Europe/Berlin');
  const ap = await insertDevice(t.db, { type: 1, serial: 'AP-I', locationId: site });
  const cube = await insertDevice(t.db, { type: 2, serial: 'CUBE-I', locationId: site, parentId: ap });
  const installedAt = new Date('2025-01-01T00:00:00Z');
  const meter = await insertMeter(t.db, {
    meterNumber: 'ING-1',
    locationId: site,
    meterInd: 1,
    cubeId: cube,
    installedAt,
  });
  const other = await insertMeter(t.db, { meterNumber: 'ING-2', locationId: site, meterInd: 2, installedAt });
  await insertReadings(t.db, meter, [[Date.parse('2026-01-01T00:00:00Z'), 10_000]]);
  ids = { ap, cube, meter, other };
});
afterAll(() => t.close());

describe('device ingestion', () => {
  it('answers accepted / duplicate / rejected per reading, and re-sending changes nothing', async () => {
    const batch = [
      { meterNumber: 'ING-1', readAt: '2026-01-01T01:15:00+01:00', register: 10.25 }, // 0 accepted (00:15Z)
      { meterNumber: 'ING-1', readAt: '2026-01-01T00:00:00Z', register: 10 }, // 1 duplicate of the stored one
      { meterNumber: 'ING-1', readAt: '2026-01-01T00:00:00Z', register: 11 }, // 2 another value for the same instant
      { meterNumber: 'NOPE', readAt: '2026-01-01T00:30:00Z', register: 1 }, // 3 unknown meter
      { meterNumber: 'ING-1', readAt: '2026-01-01 00:30', register: 10.5 }, // 4 no offset
      { meterNumber: 'ING-1', readAt: '2026-01-01T00:45:00Z', register: -1 }, // 5 negative
      { meterNumber: 'ING-1', readAt: '2026-01-01T00:30:00Z', register: 10.1 }, // 6 below 10.25 at 00:15
      { meterNumber: 'ING-1', readAt: '2999-01-01T00:00:00Z', register: 11 }, // 7 future
      { meterNumber: 'ING-2', readAt: '2026-01-01T00:00:00Z', register: 3, quality: 1 }, // 8 accepted
      { meterNumber: 'ING-2', readAt: '2026-01-01T00:00:00Z', register: 3 }, // 9 duplicate inside the batch
      { meterNumber: 'ING-2', readAt: '2026-01-01T00:15:00Z', register: 1e7 }, // 10 too many digits
    ];
    const response = await send(batch);
    expect(response.statusCode).toBe(200);
    const result = response.json<IngestResult>();
    expect(result.results.map((r) => r.status)).toEqual([
      'accepted',
      'duplicate',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'accepted',
      'duplicate',
      'rejected',
    ]);
    expect(result).toMatchObject({ accepted: 2, duplicates: 2, rejected: 7 });
    const reasons = result.results.map((r) => r.reason ?? '');
    expect(reasons[2]).toMatch(/same meter and time as line 1 with another value/);
    expect(reasons[3]).toMatch(/unknown meter number "NOPE"/);
    expect(reasons[4]).toMatch(/ISO 8601/);
    expect(reasons[5]).toMatch(/at least 0/);
    expect(reasons[6]).toMatch(/below the previous register 10\.25/);
    expect(reasons[7]).toMatch(/future/);
    expect(reasons[10]).toMatch(/digits/);
    const rows = await t.db.query<{
      meter_id: number;
      register_milli: number;
      quality: number;
      source: number;
    }>(
      'SELECT meter_id, value_micro / 1000 AS register_milli, quality, source FROM register_readings ORDER BY meter_id, read_at',
    );
    expect(rows).toEqual([
      { meter_id: ids.meter, register_milli: 10_000, quality: 0, source: 0 },
      { meter_id: ids.meter, register_milli: 10_250, quality: 0, source: 0 },
      { meter_id: ids.other, register_milli: 3_000, quality: 1, source: 0 },
    ]);
    const again = (await send(batch)).json<IngestResult>();
    expect(again).toMatchObject({ accepted: 0, duplicates: 4 });
    expect(await t.db.query('SELECT 1 FROM register_readings')).toHaveLength(3);
  });

  it('refuses dates that do not exist and a back-filled register above the next stored one', async () => {
    await send([{ meterNumber: 'ING-2', readAt: '2026-03-01T02:00:00Z', register: 20 }]);
    const result = (
      await send([
        { meterNumber: 'ING-2', readAt: '2026-02-30T00:00:00Z', register: 4 }, // 0 no 30 February
        { meterNumber: 'ING-2', readAt: '2026-02-28T24:30:00Z', register: 4 }, // 1 no 24:30
        { meterNumber: 'ING-2', readAt: '2026-03-01T01:00:00Z', register: 25 }, // 2 above 20 stored at 02:00
        { meterNumber: 'ING-2', readAt: '2026-03-01T01:30:00Z', register: 19 }, // 3 fits before 20
      ])
    ).json<IngestResult>();
    expect(result.results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'accepted']);
    const reasons = result.results.map((r) => r.reason ?? '');
    expect(reasons[0]).toBe('readAt: timestamp "2026-02-30T00:00:00Z" is not a real date and time.');
    expect(reasons[1]).toBe('readAt: timestamp "2026-02-28T24:30:00Z" is not a real date and time.');
    expect(reasons[2]).toMatch(/register 25 is above the next stored register 20/);
    const stored = await t.db.query<{ at: string }>(
      `SELECT to_char(read_at AT TIME ZONE 'UTC', 'MM-DD"T"HH24:MI') AS at FROM register_readings WHERE meter_id = $1 ORDER BY read_at`,
      [ids.other],
    );
    expect(stored.map((row) => row.at)).toEqual(['01-01T00:00', '03-01T01:30', '03-01T02:00']);
  });

  it("updates the meter's, its Cube's and its AccessPoint's last-seen time, and audits each batch", async () => {
    const ingestAudit = () =>
      t.db.query<{ actor_api_key_id: number; actor_user_id: number | null; detail: { accepted: number } }>(
        `SELECT actor_api_key_id, actor_user_id, detail FROM audit_log WHERE action = 'readings.ingest' ORDER BY id`,
      );
    const batchesBefore = (await ingestAudit()).length;
    const before = Date.now();
    await send([{ meterNumber: 'ING-1', readAt: '2026-01-01T01:00:00Z', register: 10.6 }]);
    const seen = await t.db.query<{ id: number; last_seen_at: Date | null }>(
      'SELECT id, last_seen_at FROM devices ORDER BY id',
    );
    for (const id of [ids.ap, ids.cube, ids.meter]) {
      expect(seen.find((d) => d.id === id)?.last_seen_at?.getTime(), String(id)).toBeGreaterThanOrEqual(
        before - 1000,
      );
    }
    const audit = await ingestAudit();
    expect(audit).toHaveLength(batchesBefore + 1);
    expect(audit.at(-1)).toMatchObject({
      actor_api_key_id: ingestKeyId,
      actor_user_id: null,
      detail: { accepted: 1 },
    });
  });

  it('needs an ingest key, refuses oversized batches, and an ingest key cannot reach anything else', async () => {
    expect(
      (await send([{ meterNumber: 'ING-1', readAt: '2026-01-01T02:00:00Z', register: 11 }], t.apiKey))
        .statusCode,
    ).toBe(403);
    const tooMany = Array.from({ length: 5001 }, (_v, i) => ({
      meterNumber: 'ING-2',
      readAt: new Date(Date.parse('2026-02-01T00:00:00Z') + i * 60_000).toISOString(),
      register: i,
    }));
    expect((await send(tooMany)).json()).toMatchObject({ statusCode: 400, param: 'readings' });
    expect((await send([{ meterNumber: 'ING-1', readAt: 'x', register: 'ten' }])).json()).toMatchObject({
      statusCode: 400,
    });
    const admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
    const viaIngestKey = await t.call('GET', '/api/admin/users', {
      token: admin,
      headers: { [API_KEY_HEADER]: ingestKey },
    });
    expect(viaIngestKey.statusCode).toBe(403);
  });
});
