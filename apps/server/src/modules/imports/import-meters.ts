import { MAX_METER_INTERVAL_MINUTES } from '@cm/contracts/admin.ts';
import type { CreateImportMetersBody, CreatedImportMeters } from '@cm/contracts/import-jobs.ts';
import { localParts, startOfLocal } from '@cm/contracts/zoned-time.ts';
import type { Readable } from 'node:stream';
import type { Db } from '../../db/client.ts';
import { badRequest, conflict, HttpError } from '../../http-error.ts';
import type { Actor } from '../access/index.ts';
import {
  addMeter,
  findImportLocation,
  freeMeterInd,
  loadMeterFacts,
  rethrowUnique,
} from '../directory/index.ts';
import { ImportRefusal } from './import-rows.ts';
import type { ReadOptions } from './parsers.ts';
import { readingsOfNewMeters, type NewMeter } from './preview.ts';

// Preview first, then meters: the meters a file names that are not on the site are created from
// its preview, each at the location the administrator chose, installed from the local midnight
// of its first reading, with the interval the file has. One step: all of them or none.

/** The register digits a meter needs to show `micro` (millionths): 6 to 9. */
function digitsFor(micro: number): number {
  const whole = Math.floor(micro / 1e6);
  return Math.min(9, Math.max(6, String(whole).length));
}

/**
 * Creates the new meters of `body.meters`: 400 for an unknown location, for a meter the file holds
 * no reading of or one named twice; 409 for a meter already on the site; 422 for a file refused
 * as a whole. Each creation is in the audit log (meter.create).
 */
export async function createImportMeters(
  db: Db,
  actor: Actor,
  file: { open(): Readable },
  read: ReadOptions & { timeZone?: string | undefined; meterNumber?: string | undefined },
  body: CreateImportMetersBody,
): Promise<CreatedImportMeters> {
  const known = await loadMeterFacts(db);
  const wanted: NewMeter[] = [];
  for (const [i, meter] of body.meters.entries()) {
    if (known.has(meter.meterNumber))
      throw conflict(`meters[${i}]: meter ${meter.meterNumber} is on the site already.`, 'meters');
    if (wanted.some((other) => other.meterNumber === meter.meterNumber))
      throw badRequest(`meters[${i}]: meter ${meter.meterNumber} is named twice.`, 'meters');
    const location = await findImportLocation(db, meter.locationId);
    if (!location || location.isArchived)
      throw badRequest(`meters[${i}].locationId: no such location.`, 'meters');
    wanted.push({
      meterNumber: meter.meterNumber,
      timeZone: location.timeZone,
      locationName: location.publicName,
    });
  }
  const found = await readingsOfNewMeters(file, read, known, wanted).catch((error: unknown) => {
    if (error instanceof ImportRefusal) throw new HttpError(422, error.message);
    throw error;
  });
  const items: CreatedImportMeters['items'] = [];
  await db
    .transaction(async (tx) => {
      for (const [i, meter] of body.meters.entries()) {
        const readings = found.get(meter.meterNumber);
        const zone = wanted[i]?.timeZone ?? 'UTC';
        if (!readings)
          throw badRequest(
            `meters[${i}]: the file holds no reading of meter ${meter.meterNumber} as read now.`,
            'meters',
          );
        const { year, month, day } = localParts(readings.fromMs, zone);
        const installedAt = new Date(startOfLocal({ year, month, day }, zone)).toISOString();
        const meterInd = await freeMeterInd(tx, meter.locationId);
        // Digits enough for the file's largest register (6 at least, as the meter form's default).
        const registerDigits = digitsFor(readings.maxRegisterMicro);
        // Register reads months apart (NEM13) make a meter of the longest interval a meter has.
        const intervalMinutes = Math.min(readings.intervalMinutes ?? 15, MAX_METER_INTERVAL_MINUTES);
        await addMeter(tx, actor, {
          meterNumber: meter.meterNumber,
          label: '',
          mainSupply: false,
          locationId: meter.locationId,
          cubeId: null,
          meterInd,
          multiplier: 1,
          registerDigits,
          intervalMinutes,
          installedAt,
          priority: 1,
          status: 'active',
        });
        items.push({
          meterNumber: meter.meterNumber,
          locationId: meter.locationId,
          meterInd,
          installedAt,
          intervalMinutes,
          registerDigits,
          channels: readings.channels.map((channel) => (channel === 2 ? 'export' : 'import')),
        });
      }
    })
    .catch(rethrowUnique);
  return { items };
}
