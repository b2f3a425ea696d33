import type {
  AdminDevice,
  CreateDeviceBody,
  CreateMeterBody,
  DeviceListQuery,
  DeviceNode,
  DeviceTree,
  ExchangeMeterBody,
  UpdateDeviceBody,
  UpdateMeterBody,
} from '@cm/contracts/admin.ts';
import { DeviceType } from '@cm/contracts/enums.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import { badRequest, conflict, HttpError, notFound } from '../../http-error.ts';
import {
  isImplausibleDecrease,
  kwhToMicro,
  microToKwhText,
  registerRangeMicro,
  readings,
} from '../readings/index.ts';
import { presentDevice } from './directory.presenter.ts';
import type { Actor } from '../access/index.ts';
import { recordAudit } from '../audit/index.ts';
import { uniqueViolation } from '../../db/sql-helpers.ts';
import {
  closeMeter,
  currentMeterAtInd,
  findDevice,
  findMeterDevice,
  insertDevice,
  insertMeter,
  listDevices,
  updateDevice,
  updateMeter,
  type AdminDeviceRow,
  findDeviceNames,
} from './devices.queries.ts';
import { findAdminLocation } from './locations.queries.ts';
import type { AccessRecording, Reader } from '../access-log/index.ts';

const DEVICE_NOT_FOUND = 'Device not found.';
const METER_NOT_FOUND = 'Meter not found. Check the meter number.';
const EXCHANGE_SOURCE = 4;

const typeName: Record<number, string> = { 1: 'an AccessPoint', 2: 'a Cube', 3: 'a Meter' };

// A few minutes' clock difference between the admin's device and the server is not the future.
const EXCHANGE_FUTURE_SLACK_MS = 10 * 60_000;

export class AdminDevicesService {
  /** `access`: where an administrator opening a meter is logged ("Who read my data"). */
  constructor(
    private readonly db: Db,
    private readonly access?: AccessRecording,
  ) {}

  async list(query: DeviceListQuery) {
    const { rows, total } = await listDevices(this.db, {
      locationId: query.locationId,
      type: query.type,
      priority: query.priority,
      status: query.status,
      search: query.search || undefined,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return { items: rows.map(presentDevice), total, page: query.page, pageSize: query.pageSize };
  }

  /** AccessPoint → Cubes → Meters of one location; a device whose parent is missing or elsewhere is a root. */
  async tree(locationId: number): Promise<DeviceTree> {
    if (!(await findAdminLocation(this.db, locationId))) throw notFound('Location not found.');
    const { rows } = await listDevices(this.db, { locationId, limit: 100_000, offset: 0 });
    const nodes = new Map<number, DeviceNode>(
      rows.map((row) => [row.id, { ...presentDevice(row), children: [] }]),
    );
    const roots: DeviceNode[] = [];
    for (const node of nodes.values()) {
      const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
      if (parent) parent.children.push(node);
      else roots.push(node);
    }
    return { locationId, roots };
  }

  async get(id: number): Promise<AdminDevice> {
    const row = await findDevice(this.db, id);
    if (!row) throw notFound(DEVICE_NOT_FOUND);
    return presentDevice(row);
  }

  async getMeter(meterNumber: string, reader: Reader | null = null): Promise<AdminDevice> {
    const row = await findMeterDevice(this.db, meterNumber);
    if (!row) throw notFound(METER_NOT_FOUND);
    if (reader)
      await this.access?.record({
        meterIds: [row.id],
        reader,
        data: ['details'],
        fromMs: null,
        toMs: null,
        what: 'admin: meter',
      });
    return presentDevice(row);
  }

  async create(actor: Actor, body: CreateDeviceBody): Promise<AdminDevice> {
    const id = await this.db
      .transaction(async (tx) => {
        if (!(await findAdminLocation(tx, body.locationId)))
          throw new HttpError(400, 'locationId: no such location.', 'locationId');
        await checkParent(tx, body.type, body.parentId, body.locationId);
        const deviceId = await insertDevice(tx, body);
        await recordAudit(tx, actor, {
          action: 'device.create',
          targetType: 'device',
          targetId: deviceId,
          detail: body,
        });
        return deviceId;
      })
      .catch(rethrowUnique);
    return this.get(id);
  }

  async update(actor: Actor, id: number, body: UpdateDeviceBody): Promise<AdminDevice> {
    await this.db
      .transaction(async (tx) => {
        const before = await findDevice(tx, id);
        if (!before) throw notFound(DEVICE_NOT_FOUND);
        if (body.parentId !== undefined)
          await checkParent(tx, before.type, body.parentId, before.location_id);
        await updateDevice(tx, id, body);
        await recordAudit(tx, actor, {
          action: 'device.update',
          targetType: 'device',
          targetId: id,
          detail: {
            before: {
              serial: before.serial,
              parentId: before.parent_id,
              priority: before.priority,
              status: before.status,
            },
            changes: body,
          },
        });
      })
      .catch(rethrowUnique);
    return this.get(id);
  }

  async createMeter(actor: Actor, body: CreateMeterBody): Promise<AdminDevice> {
    await this.db.transaction((tx) => addMeter(tx, actor, body)).catch(rethrowUnique);
    return this.getMeter(body.meterNumber);
  }

  async updateMeter(actor: Actor, meterNumber: string, body: UpdateMeterBody): Promise<AdminDevice> {
    await this.db
      .transaction(async (tx) => {
        const before = await findMeterDevice(tx, meterNumber, { lock: true });
        if (!before) throw notFound(METER_NOT_FOUND);
        if (
          body.meterInd !== undefined &&
          body.meterInd !== before.meter_ind &&
          before.removed_at === null &&
          (await currentMeterAtInd(tx, before.location_id, body.meterInd, before.id))
        ) {
          throw conflict(`meterInd: this location already has a current meter ${body.meterInd}.`, 'meterInd');
        }
        await updateMeter(tx, before.id, body);
        await updateDevice(tx, before.id, { priority: body.priority, status: body.status });
        await recordAudit(tx, actor, {
          action: 'meter.update',
          targetType: 'meter',
          targetId: meterNumber,
          detail: {
            before: {
              meterNumber: before.meter_number,
              label: before.label,
              mainSupply: before.main_supply,
              meterInd: before.meter_ind,
              multiplier: before.multiplier,
              registerDigits: before.register_digits,
              intervalMinutes: before.interval_minutes,
              priority: before.priority,
              status: before.status,
            },
            changes: body,
          },
        });
      })
      .catch(rethrowUnique);
    return this.getMeter(body.meterNumber ?? meterNumber);
  }

  async moveMeter(actor: Actor, meterNumber: string, cubeId: number | null): Promise<AdminDevice> {
    await this.db.transaction(async (tx) => {
      const meter = await findMeterDevice(tx, meterNumber, { lock: true });
      if (!meter) throw notFound(METER_NOT_FOUND);
      await checkParent(tx, DeviceType.Meter, cubeId, meter.location_id, 'cubeId');
      await updateDevice(tx, meter.id, { parentId: cubeId });
      await recordAudit(tx, actor, {
        action: 'meter.move',
        targetType: 'meter',
        targetId: meterNumber,
        detail: { fromCubeId: meter.parent_id, toCubeId: cubeId },
      });
    });
    return this.getMeter(meterNumber);
  }

  /**
   * Replaces a meter in one transaction: the old one is closed at `at` with its final register
   * (stored as an exchange reading; a meter with interval data only has none to give), the new one
   * opens at the same location and indicator at the same instant with its start register, so the
   * indicator's consumption continues without a gap.
   */
  async exchange(
    actor: Actor,
    meterNumber: string,
    body: ExchangeMeterBody,
  ): Promise<{ oldMeter: AdminDevice; newMeter: AdminDevice }> {
    const at = new Date(body.at);
    const finalMicro = body.finalRegister === undefined ? null : kwhToMicro(body.finalRegister);
    const startMicro = kwhToMicro(body.newStartRegister);
    if (body.newMeterNumber === meterNumber) {
      throw badRequest('newMeterNumber must differ from the meter being exchanged.', 'newMeterNumber');
    }
    if (at.getTime() > Date.now() + EXCHANGE_FUTURE_SLACK_MS)
      throw badRequest('at must not be in the future: an exchange is recorded once it has happened.', 'at');
    if (at.getUTCFullYear() < 1900) throw badRequest('at must be in 1900 or later.', 'at');
    await readings.makeRoom(this.db, at, at);
    await this.db
      .transaction(async (tx) => {
        const old = await findMeterDevice(tx, meterNumber, { lock: true });
        if (!old || old.installed_at === null || old.meter_ind === null) throw notFound(METER_NOT_FOUND);
        if (await findMeterDevice(tx, body.newMeterNumber)) {
          throw conflict('newMeterNumber: another meter already has this meter number.', 'newMeterNumber');
        }
        if (old.removed_at)
          throw conflict('This meter has already been removed; exchange the meter that replaced it.');
        if (at <= old.installed_at) {
          throw badRequest(
            `at must be after the meter's installation (${old.installed_at.toISOString()}).`,
            'at',
          );
        }
        const digits = old.register_digits ?? 6;
        if (finalMicro === null) {
          if (old.last_register_month !== null)
            throw badRequest(
              'finalRegister is required: the meter has register readings, give its register at the exchange.',
              'finalRegister',
            );
        } else if (!(finalMicro >= 0 && finalMicro < registerRangeMicro(digits))) {
          throw badRequest(
            `finalRegister does not fit the meter's ${digits} register digits.`,
            'finalRegister',
          );
        }
        const newDigits = body.newRegisterDigits ?? digits;
        if (!(startMicro >= 0 && startMicro < registerRangeMicro(newDigits))) {
          throw badRequest(
            `newStartRegister does not fit the new meter's ${newDigits} register digits.`,
            'newStartRegister',
          );
        }
        const around = await readings.registersAround(tx, old.id, at);
        if (around.hasLater) {
          throw badRequest(
            'The old meter has readings after this instant: choose the instant of its last reading or later.',
            'at',
          );
        }
        if (finalMicro !== null) {
          if (around.atValue !== undefined && around.atValue !== finalMicro) {
            throw conflict(
              `finalRegister: a reading of ${microToKwhText(around.atValue)} is already stored at this instant.`,
              'finalRegister',
            );
          }
          if (around.before !== undefined && isImplausibleDecrease(around.before, finalMicro, digits)) {
            throw badRequest(
              `finalRegister (${body.finalRegister}) is below the meter's last reading (${microToKwhText(around.before)}).`,
              'finalRegister',
            );
          }
          await readings.addRegister(tx, old.id, { at, micro: finalMicro, source: EXCHANGE_SOURCE });
        }
        await closeMeter(tx, old.id, at);
        const newId = await insertDevice(tx, {
          type: DeviceType.Meter,
          serial: body.newSerial ?? body.newMeterNumber,
          parentId: old.parent_id,
          locationId: old.location_id,
          priority: old.priority,
          status: 'active',
        });
        await insertMeter(tx, {
          deviceId: newId,
          meterNumber: body.newMeterNumber,
          // The name belongs to the place ("Apt C-101"): the replacement keeps it.
          label: old.label ?? '',
          mainSupply: old.main_supply ?? false,
          locationId: old.location_id,
          meterInd: old.meter_ind,
          multiplier: body.newMultiplier ?? old.multiplier ?? 1,
          registerDigits: newDigits,
          intervalMinutes: old.interval_minutes ?? 15,
          installedAt: at,
        });
        await readings.addRegister(tx, newId, { at, micro: startMicro, source: EXCHANGE_SOURCE });
        await recordAudit(tx, actor, {
          action: 'meter.exchange',
          targetType: 'meter',
          targetId: meterNumber,
          detail: { ...body, locationId: old.location_id, meterInd: old.meter_ind },
        });
      })
      .catch(rethrowUnique);
    return { oldMeter: await this.getMeter(meterNumber), newMeter: await this.getMeter(body.newMeterNumber) };
  }
}

/** AccessPoints hang under nothing, Cubes under an AccessPoint, Meters under a Cube — of the same location. */
async function checkParent(
  tx: SqlRunner,
  type: number,
  parentId: number | null,
  locationId: number,
  param = 'parentId',
): Promise<void> {
  if (parentId === null) return;
  if (type === DeviceType.AccessPoint) throw badRequest(`${param}: an AccessPoint has no parent.`, param);
  const parent: AdminDeviceRow | undefined = await findDevice(tx, parentId);
  const expected = type === DeviceType.Cube ? DeviceType.AccessPoint : DeviceType.Cube;
  if (!parent) throw badRequest(`${param}: no device has id ${parentId}.`, param);
  if (parent.type !== expected) {
    throw badRequest(
      `${param}: ${typeName[type] ?? 'this device'} hangs under ${typeName[expected]}, not under ${typeName[parent.type] ?? 'this device'}.`,
      param,
    );
  }
  if (parent.location_id !== locationId)
    throw badRequest(`${param}: the parent device is at another location.`, param);
}

/**
 * A new meter at a location, audit-logged, inside the caller's transaction (the admin's meter form,
 * or the meters an import's file names): 400 for no such location, 409 for a number or a current
 * meterInd already taken.
 */
export async function addMeter(tx: SqlRunner, actor: Actor, body: CreateMeterBody): Promise<void> {
  if (!(await findAdminLocation(tx, body.locationId)))
    throw new HttpError(400, 'locationId: no such location.', 'locationId');
  await checkParent(tx, DeviceType.Meter, body.cubeId, body.locationId, 'cubeId');
  if (await findMeterDevice(tx, body.meterNumber)) {
    throw conflict('Another meter already has this meter number.', 'meterNumber');
  }
  if (await currentMeterAtInd(tx, body.locationId, body.meterInd, 0)) {
    throw conflict(
      `meterInd: this location already has a current meter ${body.meterInd}; exchange that meter instead.`,
      'meterInd',
    );
  }
  const deviceId = await insertDevice(tx, {
    type: DeviceType.Meter,
    serial: body.serial ?? body.meterNumber,
    parentId: body.cubeId,
    locationId: body.locationId,
    priority: body.priority,
    status: body.status,
  });
  await insertMeter(tx, { deviceId, ...body, installedAt: new Date(body.installedAt) });
  await recordAudit(tx, actor, {
    action: 'meter.create',
    targetType: 'meter',
    targetId: body.meterNumber,
    detail: body,
  });
}

/** The lowest meter indicator no current meter of the location has. */
export async function freeMeterInd(tx: SqlRunner, locationId: number): Promise<number> {
  for (let ind = 1; ind < 9999; ind++) if (!(await currentMeterAtInd(tx, locationId, ind, 0))) return ind;
  throw conflict('This location has no free meter indicator left.', 'meterInd');
}

export function rethrowUnique(error: unknown): never {
  const violated = uniqueViolation(error);
  if (violated?.includes('meter_number'))
    throw conflict('Another meter already has this meter number.', 'meterNumber');
  if (violated?.includes('serial'))
    throw conflict('Another device already has this serial number.', 'serial');
  if (violated) throw conflict('This would duplicate an existing device.');
  throw error;
}

/** Devices' names (a meter's number, else the serial), for the audit log. */
export const deviceNames = (db: SqlRunner, ids: readonly number[]) => findDeviceNames(db, ids);
