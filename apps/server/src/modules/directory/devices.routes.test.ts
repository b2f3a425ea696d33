import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminDevice, DeviceTree } from '@cm/contracts/admin.ts';
import { createAdminContext, auditActionsOf, type AdminContext } from '../../test/admin-context.ts';
import { readingsAnswer } from '../../test/test-app.ts';
import { insertIntervals, insertReadings, regularReadings } from '../../test/factories.ts';

let t: AdminContext['t'];
let admin: string;
let client: string;
let harbour: number;

beforeAll(async () => {
  ({ t, admin, client, harbour } = await createAdminContext());
});
afterAll(() => t.close());

const auditActions = (targetType: string, targetId: string | number) =>
  auditActionsOf(t.db, targetType, targetId);

describe('devices and meters', () => {
  let ap: AdminDevice;
  let cube1: AdminDevice;
  let cube2: AdminDevice;

  it('builds AccessPoint → Cube → Meter and refuses wrong parents and bad meter fields', async () => {
    ap = (
      await t.call('POST', '/api/admin/devices', {
        token: admin,
        body: { type: 1, serial: 'AP-1', locationId: harbour },
      })
    ).json<AdminDevice>();
    cube1 = (
      await t.call('POST', '/api/admin/devices', {
        token: admin,
        body: { type: 2, serial: 'CUBE-1', locationId: harbour, parentId: ap.id, priority: 2 },
      })
    ).json<AdminDevice>();
    cube2 = (
      await t.call('POST', '/api/admin/devices', {
        token: admin,
        body: { type: 2, serial: 'CUBE-2', locationId: harbour, parentId: ap.id },
      })
    ).json<AdminDevice>();
    expect(cube1).toMatchObject({ type: 2, parentId: ap.id, parentSerial: 'AP-1', priorityLabel: 'High' });
    const wrongParent = await t.call('POST', '/api/admin/devices', {
      token: admin,
      body: { type: 2, serial: 'CUBE-X', locationId: harbour, parentId: cube1.id },
    });
    expect(wrongParent.json()).toMatchObject({ statusCode: 400, param: 'parentId' });
    const dupSerial = await t.call('POST', '/api/admin/devices', {
      token: admin,
      body: { type: 1, serial: 'AP-1', locationId: harbour },
    });
    expect(dupSerial.json()).toMatchObject({ statusCode: 409, param: 'serial' });

    const meter = {
      meterNumber: 'EM-1',
      locationId: harbour,
      cubeId: cube1.id,
      meterInd: 1,
      intervalMinutes: 15,
      installedAt: '2026-01-01T00:00:00Z',
    };
    const created = await t.call('POST', '/api/admin/meters', { token: admin, body: meter });
    expect(created.statusCode).toBe(201);
    expect(created.json<AdminDevice>()).toMatchObject({
      type: 3,
      parentId: cube1.id,
      meter: { meterNumber: 'EM-1', meterInd: 1, multiplier: 1, registerDigits: 6 },
    });
    const bad: Array<[Record<string, unknown>, string, number]> = [
      [{ meterNumber: 'EM-2', meterInd: 0 }, 'meterInd', 400],
      [{ meterNumber: 'EM-2', meterInd: 2, multiplier: 0 }, 'multiplier', 400],
      [{ meterNumber: 'EM-2', meterInd: 2, registerDigits: 13 }, 'registerDigits', 400],
      [{ meterNumber: 'EM-2', meterInd: 2, registerDigits: 2 }, 'registerDigits', 400],
      [{ meterNumber: 'EM-2', meterInd: 2, installedAt: '2026-01-01 00:00' }, 'installedAt', 400],
      [{ meterNumber: 'EM-2', meterInd: 2, cubeId: ap.id }, 'cubeId', 400],
      [{ meterNumber: 'EM-1', meterInd: 2 }, 'meterNumber', 409],
      [{ meterNumber: 'EM-2', meterInd: 1 }, 'meterInd', 409],
    ];
    for (const [changes, param, status] of bad) {
      const response = await t.call('POST', '/api/admin/meters', {
        token: admin,
        body: { ...meter, ...changes },
      });
      expect(response.json(), JSON.stringify(changes)).toMatchObject({ statusCode: status, param });
    }
    await t.call('POST', '/api/admin/meters', {
      token: admin,
      body: { ...meter, meterNumber: 'EM-2', meterInd: 2, cubeId: cube2.id, priority: 3 },
    });
  });

  it('shows the network as a tree and as a filtered table, and moves a meter to another Cube', async () => {
    const tree = (
      await t.call('GET', `/api/admin/locations/${harbour}/devices/tree`, { token: admin })
    ).json<DeviceTree>();
    expect(tree.roots.map((n) => n.serial)).toEqual(['AP-1']);
    expect(
      tree.roots[0]?.children.map((c) => [c.serial, c.children.map((m) => m.meter?.meterNumber)]),
    ).toEqual([
      ['CUBE-1', ['EM-1']],
      ['CUBE-2', ['EM-2']],
    ]);
    const cubes = (
      await t.call('GET', `/api/admin/devices?type=2&locationId=${harbour}`, { token: admin })
    ).json<{ items: AdminDevice[]; total: number }>();
    expect(cubes.items.map((d) => d.serial)).toEqual(['CUBE-1', 'CUBE-2']);
    const medium = (await t.call('GET', '/api/admin/devices?priority=3', { token: admin })).json<{
      items: AdminDevice[];
    }>();
    expect(medium.items.map((d) => d.meter?.meterNumber)).toEqual(['EM-2']);
    expect((await t.call('GET', '/api/admin/devices?type=4', { token: admin })).json()).toMatchObject({
      statusCode: 400,
      param: 'type',
    });
    expect((await t.call('GET', '/api/admin/devices?status=broken', { token: admin })).json()).toMatchObject({
      statusCode: 400,
      param: 'status',
    });
    const moved = await t.call('POST', '/api/admin/meters/EM-2/move', {
      token: admin,
      body: { cubeId: cube1.id },
    });
    expect(moved.json<AdminDevice>()).toMatchObject({ parentId: cube1.id, parentSerial: 'CUBE-1' });
    expect(
      (await t.call('POST', '/api/admin/meters/EM-2/move', { token: admin, body: { cubeId: ap.id } }))
        .statusCode,
    ).toBe(400);
    expect(
      (await t.call('POST', '/api/admin/meters/NOPE/move', { token: admin, body: { cubeId: null } }))
        .statusCode,
    ).toBe(404);
    const edited = await t.call('PATCH', '/api/admin/meters/EM-2', {
      token: admin,
      body: { multiplier: 40, status: 'faulty' },
    });
    expect(edited.json<AdminDevice>()).toMatchObject({ status: 'faulty', meter: { multiplier: 40 } });
    const meters = (await t.call('GET', `/api/admin/locations/${harbour}/meters`, { token: admin })).json<{
      items: AdminDevice[];
    }>();
    expect(meters.items.map((m) => m.meter?.meterNumber)).toEqual(['EM-1', 'EM-2']);
    expect(await auditActions('meter', 'EM-2')).toEqual(['meter.create', 'meter.move', 'meter.update']);
  });

  it('names a meter as people call it, renames and clears it; clients read the name', async () => {
    // Issue 17.5: "Apt C-101", "HVAC", "Café" were in the data and nowhere on screen.
    const named = await t.call('POST', '/api/admin/meters', {
      token: admin,
      body: {
        meterNumber: 'EM-NAMED',
        label: '  Café  ',
        locationId: harbour,
        meterInd: 7,
        installedAt: '2026-01-01T00:00:00Z',
      },
    });
    expect(named.statusCode).toBe(201);
    expect(named.json<AdminDevice>().meter?.label).toBe('Café');
    const info = await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-NAMED', { token: client });
    expect(info.json<{ label: string }>().label).toBe('Café');
    const renamed = await t.call('PATCH', '/api/admin/meters/EM-NAMED', {
      token: admin,
      body: { label: 'Café & bakery' },
    });
    expect(renamed.json<AdminDevice>().meter?.label).toBe('Café & bakery');
    const tooLong = await t.call('PATCH', '/api/admin/meters/EM-NAMED', {
      token: admin,
      body: { label: 'x'.repeat(61) },
    });
    expect(tooLong.json()).toMatchObject({ statusCode: 400, param: 'label' });
    const cleared = await t.call('PATCH', '/api/admin/meters/EM-NAMED', {
      token: admin,
      body: { label: '' },
    });
    expect(cleared.json<AdminDevice>().meter?.label).toBe('');
    // Issue 17.5: the main supply, against which the location's sub-meters are set.
    expect(named.json<AdminDevice>().meter?.mainSupply).toBe(false);
    const main = await t.call('PATCH', '/api/admin/meters/EM-NAMED', {
      token: admin,
      body: { mainSupply: true },
    });
    expect(main.json<AdminDevice>().meter).toMatchObject({ mainSupply: true, label: '' });
    const mainInfo = await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-NAMED', {
      token: client,
    });
    expect(mainInfo.json<{ mainSupply: boolean }>().mainSupply).toBe(true);
    const notBoolean = await t.call('PATCH', '/api/admin/meters/EM-NAMED', {
      token: admin,
      body: { mainSupply: 'yes' },
    });
    expect(notBoolean.json()).toMatchObject({ statusCode: 400, param: 'mainSupply' });
    // An unnamed meter answers '' (never null), as the contract says.
    const unnamed = await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-1', { token: admin });
    expect(unnamed.json<{ label: string }>().label).toBe('');
  });

  it('exchanges a meter so that the location shows continuous consumption', async () => {
    // EM-1 reads every 15 min from 1 March 00:00 Berlin, +0.1 kWh each; exchanged at 12:00 UTC.
    const meterId =
      (await t.db.query<{ device_id: number }>(`SELECT device_id FROM meters WHERE meter_number = 'EM-1'`))[0]
        ?.device_id ?? 0;
    const start = Date.parse('2026-02-28T23:00:00Z');
    const exchangeAt = Date.parse('2026-03-01T12:00:00Z');
    await insertReadings(
      t.db,
      meterId,
      regularReadings(start, exchangeAt - 15 * 60_000, 15 * 60_000, 5_000_000, () => 100),
    );
    // The final register closes the last interval: +0.1 kWh after the last stored reading.
    const final = (5_000_000 + 51 * 100 + 100) / 1000;
    const body = {
      at: '2026-03-01T12:00:00Z',
      finalRegister: final,
      newMeterNumber: 'EM-1B',
      newStartRegister: 2.5,
    };
    expect(
      (
        await t.call('POST', '/api/admin/meters/EM-1/exchange', {
          token: admin,
          body: { ...body, finalRegister: 4000 },
        })
      ).json(),
    ).toMatchObject({ statusCode: 400, param: 'finalRegister' });
    expect(
      (
        await t.call('POST', '/api/admin/meters/EM-1/exchange', {
          token: admin,
          body: { ...body, newMeterNumber: 'EM-2' },
        })
      ).json(),
    ).toMatchObject({ statusCode: 409, param: 'newMeterNumber' });
    expect(
      (
        await t.call('POST', '/api/admin/meters/EM-1/exchange', {
          token: admin,
          body: { ...body, at: '2025-12-01T00:00:00Z' },
        })
      ).json(),
    ).toMatchObject({ statusCode: 400, param: 'at' });
    const exchanged = await t.call('POST', '/api/admin/meters/EM-1/exchange', { token: admin, body });
    expect(exchanged.statusCode).toBe(200);
    const result = exchanged.json<{ oldMeter: AdminDevice; newMeter: AdminDevice }>();
    expect(result.oldMeter).toMatchObject({
      status: 'removed',
      meter: { removedAt: '2026-03-01T12:00:00.000Z' },
    });
    expect(result.newMeter).toMatchObject({
      status: 'active',
      parentId: cube1.id,
      meter: { meterInd: 1, installedAt: '2026-03-01T12:00:00.000Z' },
    });
    const stored = await t.db.query<{ meter_number: string; register_milli: number; source: number }>(
      `SELECT m.meter_number, r.value_micro / 1000 AS register_milli, r.source FROM register_readings r JOIN meters m ON m.device_id = r.meter_id WHERE r.source = 4 ORDER BY m.meter_number`,
    );
    expect(stored).toEqual([
      { meter_number: 'EM-1', register_milli: 5_005_200, source: 4 },
      { meter_number: 'EM-1B', register_milli: 2_500, source: 4 },
    ]);
    const newId = result.newMeter.id;
    await insertReadings(
      t.db,
      newId,
      regularReadings(
        exchangeAt + 15 * 60_000,
        Date.parse('2026-03-01T23:00:00Z'),
        15 * 60_000,
        2_600,
        () => 100,
      ),
    );
    const day = readingsAnswer(
      await t.call(
        'GET',
        '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=Harbour&From=2026-03-01&To=2026-03-01&meterInd=1',
        { token: admin },
      ),
    );
    const indicator = day.meters[0];
    expect(indicator?.meterNumbers).toEqual(['EM-1', 'EM-1B']);
    // 96 quarter hours of 0.1 kWh across both meters, with no gap at the exchange.
    expect(indicator?.totals.consumption).toBeCloseTo(9.6, 6);
    expect(indicator?.totals.missingIntervals).toBe(0);
    expect(indicator?.gaps).toEqual([]);
    expect(indicator?.events.map((e) => e.type)).toContain('meterExchange');
    expect(
      (
        await t.call('POST', '/api/admin/meters/EM-1/exchange', {
          token: admin,
          body: { ...body, newMeterNumber: 'EM-1C' },
        })
      ).statusCode,
    ).toBe(409);
    expect(await auditActions('meter', 'EM-1')).toEqual(['meter.create', 'meter.exchange']);
  });

  it('exchanges an interval-only meter without a final register; the new one has never been heard from (issue 34.4)', async () => {
    // EM-7 (indicator 17) has only interval data: 4 quarter hours of 0.25 kWh on 2 March 2026.
    const created = await t.call('POST', '/api/admin/meters', {
      token: admin,
      body: {
        meterNumber: 'EM-7',
        locationId: harbour,
        cubeId: cube2.id,
        meterInd: 17,
        installedAt: '2026-03-01T00:00:00Z',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const meterId = created.json<AdminDevice>().id;
    const q = 15 * 60_000;
    const first = Date.parse('2026-03-02T00:00:00Z');
    await insertIntervals(
      t.db,
      meterId,
      [0, 1, 2, 3].map((i) => [first + i * q, first + (i + 1) * q, 250_000] as const),
    );
    const listed = await t.call('GET', `/api/admin/devices?locationId=${harbour}&search=EM-7`, {
      token: admin,
    });
    const em7 = listed.json<{ items: AdminDevice[] }>().items.find((d) => d.meter?.meterNumber === 'EM-7');
    expect(em7?.meter?.hasRegisterReadings).toBe(false);
    const body = { at: '2026-03-03T00:00:00Z', newMeterNumber: 'EM-7B', newStartRegister: 0 };
    const exchanged = await t.call('POST', '/api/admin/meters/EM-7/exchange', { token: admin, body });
    expect(exchanged.statusCode).toBe(200);
    // No register is made up for the old meter.
    const registers = await t.db.query(`SELECT 1 FROM register_readings WHERE meter_id = $1`, [meterId]);
    expect(registers).toEqual([]);
    // The new meter's only reading is the start register a person typed: it has never reported.
    const info = await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-7B', { token: admin });
    expect(info.json()).toMatchObject({
      lastSeenAt: null,
      health: 'unknown',
      completeUpTo: null,
      lastReading: { at: '2026-03-03T00:00:00.000Z', value: 0 },
    });
    // A meter with register readings still needs its final register.
    const withRegisters = await t.call('POST', '/api/admin/meters/EM-1B/exchange', {
      token: admin,
      body: { at: '2026-03-02T00:00:00Z', newMeterNumber: 'EM-1D', newStartRegister: 0 },
    });
    expect(withRegisters.json()).toMatchObject({ statusCode: 400, param: 'finalRegister' });
  });
});
