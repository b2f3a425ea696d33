import type { IngestBody, IngestResult } from '@cm/contracts/admin.ts';
import type { Db } from '../../db/client.ts';
import { writeAudit, type Actor } from '../admin/audit.queries.ts';
import { isImplausibleDecrease, kwhToMilli, registerRangeMilli } from '../imports/register-value.ts';
import { findMetersByNumber, insertDeviceReadings, neighbours, touchChains } from './ingest.queries.ts';

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
// A device clock may run a little ahead; more than this is a mistake.
const FUTURE_SLACK_MS = 10 * 60_000;

interface Candidate {
  index: number;
  meterId: number;
  readAtMs: number;
  milli: number;
  quality: number;
  digits: number;
}

type Outcome = IngestResult['results'][number];

/** Readings sent by AccessPoints and Cubes: validated one by one, stored idempotently, audited per batch. */
export class IngestService {
  constructor(private readonly db: Db) {}

  async ingest(actor: Actor, body: IngestBody): Promise<IngestResult> {
    const nowMs = Date.now();
    const results: Outcome[] = body.readings.map((_r, index) => ({ index, status: 'rejected' }));
    const reject = (index: number, reason: string) => {
      results[index] = { index, status: 'rejected', reason };
    };
    const meters = new Map(
      (await findMetersByNumber(this.db, [...new Set(body.readings.map((r) => r.meterNumber))])).map((m) => [
        m.meter_number,
        m,
      ]),
    );
    const candidates: Candidate[] = [];
    const firstAt = new Map<string, Candidate>();
    body.readings.forEach((reading, index) => {
      const meter = meters.get(reading.meterNumber);
      if (!meter) return reject(index, `unknown meter number "${reading.meterNumber}".`);
      const readAtMs = ISO_WITH_OFFSET.test(reading.readAt) ? Date.parse(reading.readAt) : Number.NaN;
      if (!Number.isFinite(readAtMs))
        return reject(index, 'readAt must be an ISO 8601 date-time with offset.');
      if (readAtMs > nowMs + FUTURE_SLACK_MS) return reject(index, 'readAt is in the future.');
      if (
        readAtMs < meter.installed_at.getTime() ||
        (meter.removed_at && readAtMs > meter.removed_at.getTime())
      ) {
        return reject(index, 'the meter was not installed at readAt.');
      }
      const milli = kwhToMilli(reading.register);
      if (!Number.isFinite(milli) || milli < 0)
        return reject(index, 'register must be a number of at least 0.');
      if (milli >= registerRangeMilli(meter.register_digits))
        return reject(index, `register does not fit the meter's ${meter.register_digits} digits.`);
      const key = `${meter.device_id}:${readAtMs}`;
      const earlier = firstAt.get(key);
      if (earlier) {
        if (earlier.milli === milli) results[index] = { index, status: 'duplicate' };
        else reject(index, `same meter and readAt as reading ${earlier.index} with another register.`);
        return;
      }
      const candidate = {
        index,
        meterId: meter.device_id,
        readAtMs,
        milli,
        quality: reading.quality ?? 0,
        digits: meter.register_digits,
      };
      firstAt.set(key, candidate);
      candidates.push(candidate);
    });

    await this.db.transaction(async (tx) => {
      const around = await neighbours(tx, candidates);
      // In time order per meter, so a reading is compared with the one just before it (in the batch or stored).
      const order = candidates
        .map((c, i) => ({ c, n: around[i] }))
        .sort((a, b) => a.c.meterId - b.c.meterId || a.c.readAtMs - b.c.readAtMs);
      const accepted: Candidate[] = [];
      let last: { meterId: number; ms: number; milli: number } | undefined;
      for (const { c, n } of order) {
        if (n?.at_value !== null && n?.at_value !== undefined) {
          if (n.at_value === c.milli) results[c.index] = { index: c.index, status: 'duplicate' };
          else reject(c.index, `another register (${n.at_value / 1000}) is already stored at this readAt.`);
          continue;
        }
        let previous = n?.prev_value ?? null;
        if (
          last &&
          last.meterId === c.meterId &&
          (n?.prev_ms === null || n?.prev_ms === undefined || last.ms > n.prev_ms)
        )
          previous = last.milli;
        if (previous !== null && isImplausibleDecrease(previous, c.milli, c.digits)) {
          reject(c.index, `register ${c.milli / 1000} is below the previous register ${previous / 1000}.`);
          continue;
        }
        accepted.push(c);
        last = { meterId: c.meterId, ms: c.readAtMs, milli: c.milli };
      }
      const inserted = accepted.length > 0 ? await insertDeviceReadings(tx, accepted) : new Set<string>();
      for (const c of accepted) {
        // Another request may have stored the same instant meanwhile: then it is a duplicate.
        results[c.index] = {
          index: c.index,
          status: inserted.has(`${c.meterId}:${c.readAtMs}`) ? 'accepted' : 'duplicate',
        };
      }
      const heard = [...new Set(candidates.map((c) => c.meterId))];
      if (heard.length > 0) await touchChains(tx, heard);
      const counts = count(results);
      await writeAudit(tx, actor, {
        action: 'readings.ingest',
        targetType: 'readings',
        targetId: null,
        detail: { readings: body.readings.length, ...counts },
      });
    });
    return { ...count(results), results };
  }
}

function count(results: readonly Outcome[]) {
  let accepted = 0;
  let duplicates = 0;
  let rejected = 0;
  for (const r of results) {
    if (r.status === 'accepted') accepted++;
    else if (r.status === 'duplicate') duplicates++;
    else rejected++;
  }
  return { accepted, duplicates, rejected };
}
