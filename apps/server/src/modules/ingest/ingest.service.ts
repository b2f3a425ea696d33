import type { IngestBody, IngestResult } from '@cm/contracts/admin.ts';
import { reasonText } from '@cm/contracts/import-reasons.ts';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../access/index.ts';
import { recordAudit } from '../audit/index.ts';
import { parseTimestamp } from '../imports/index.ts';
import {
  readings,
  copyLine,
  ReadingsStage,
  type StageLine,
  kwhToMicro,
  microToKwhText,
  registerRangeMicro,
  CHANNEL_NUMBER,
  type ReadingsAddedListener,
} from '../readings/index.ts';
import { addChannels, findMetersByNumber, touchChains, type IngestMeter } from '../directory/index.ts';

// A device clock may run a little ahead; more than this is a mistake.
const FUTURE_SLACK_MS = 10 * 60_000;
// Reading sources (db/schema.ts): 0 device.
const SOURCE_DEVICE = 0;

type Outcome = IngestResult['results'][number];
type Reading = IngestBody['readings'][number];

/** An ISO 8601 instant with its offset, calendar-checked (no 30 February, no 24:00, offsets within ±14:00). */
function instantOf(text: string | undefined, name: string): { ms: number } | { reason: string } {
  if (text === undefined) return { reason: `${name} is missing.` };
  const parsed = parseTimestamp(text, undefined);
  if (!parsed.ok) {
    return {
      reason:
        parsed.reason.code === 'noOffsetNoZone'
          ? `${name} must be an ISO 8601 date-time with offset.`
          : `${name}: ${reasonText(parsed.reason)}`,
    };
  }
  return { ms: parsed.ms };
}

/** One reading of a batch as a stage row, or why it is refused. */
function stageRowOf(
  reading: Reading,
  index: number,
  meter: IngestMeter | undefined,
  nowMs: number,
): StageLine | { reason: string } {
  if (!meter) return { reason: `unknown meter number "${reading.meterNumber}".` };
  const channel = CHANNEL_NUMBER[reading.channel ?? 'import'];
  const isRegister = reading.register !== undefined || reading.readAt !== undefined;
  const isInterval = reading.energy !== undefined || reading.start !== undefined || reading.end !== undefined;
  if (isRegister === isInterval)
    return {
      reason: 'give readAt and register (a register reading), or start, end and energy (an interval).',
    };
  const quality = reading.quality ?? 0;
  const installed = (fromMs: number, toMs: number) =>
    fromMs >= meter.installedAt.getTime() && (!meter.removedAt || toMs <= meter.removedAt.getTime());
  if (isRegister) {
    const at = instantOf(reading.readAt, 'readAt');
    if ('reason' in at) return at;
    if (at.ms > nowMs + FUTURE_SLACK_MS) return { reason: 'readAt is in the future.' };
    if (!installed(at.ms, at.ms)) return { reason: 'the meter was not installed at readAt.' };
    const micro = kwhToMicro(reading.register ?? Number.NaN);
    if (!Number.isFinite(micro) || micro < 0) return { reason: 'register must be a number of at least 0.' };
    if (micro >= registerRangeMicro(meter.registerDigits))
      return { reason: `register does not fit the meter's ${meter.registerDigits} digits.` };
    return {
      line: index,
      meterId: meter.id,
      channel,
      kind: 'register',
      atMs: at.ms,
      endMs: null,
      micro,
      quality,
    };
  }
  const start = instantOf(reading.start, 'start');
  if ('reason' in start) return start;
  const end = instantOf(reading.end, 'end');
  if ('reason' in end) return end;
  if (end.ms <= start.ms) return { reason: 'end must be after start.' };
  if (end.ms > nowMs + FUTURE_SLACK_MS) return { reason: 'end is in the future.' };
  if (!installed(start.ms, end.ms)) return { reason: 'the meter was not installed over the interval.' };
  const micro = kwhToMicro(reading.energy ?? Number.NaN);
  if (!Number.isFinite(micro) || micro < 0) return { reason: 'energy must be a number of at least 0.' };
  return {
    line: index,
    meterId: meter.id,
    channel,
    kind: 'interval',
    atMs: start.ms,
    endMs: end.ms,
    micro,
    quality,
  };
}

/**
 * Readings sent by AccessPoints and Cubes: each checked against the others of the batch and the
 * stored ones (a register never falls but when it rolls over, intervals never overlap), stored
 * idempotently (or as corrections when asked), audited per batch.
 */
export class IngestService {
  /** `added`: told of the meters a batch added readings to (ESPI notifications). */
  constructor(
    private readonly db: Db,
    private readonly added?: ReadingsAddedListener,
  ) {}

  async ingest(actor: Actor, body: IngestBody): Promise<IngestResult> {
    const nowMs = Date.now();
    const results: Outcome[] = body.readings.map((_r, index) => ({ index, status: 'rejected' }));
    const meters = new Map(
      (await findMetersByNumber(this.db, [...new Set(body.readings.map((r) => r.meterNumber))])).map((m) => [
        m.meterNumber,
        m,
      ]),
    );
    const rows: StageLine[] = [];
    body.readings.forEach((reading, index) => {
      const row = stageRowOf(reading, index, meters.get(reading.meterNumber), nowMs);
      if ('reason' in row) results[index] = { index, status: 'rejected', reason: row.reason };
      else rows.push(row);
    });
    if (rows.length > 0) {
      const times = rows.flatMap((row) => [row.atMs, row.endMs ?? row.atMs]);
      await readings.makeRoom(this.db, new Date(Math.min(...times)), new Date(Math.max(...times)));
    }
    let changed: number[] = [];
    await this.db.transaction(async (tx) => {
      if (rows.length > 0) {
        const stage = await ReadingsStage.open(tx, { temporary: true });
        await stage.fill(tx, [rows.map(copyLine).join('')]);
        await stage.check(tx, { mayRepeat: true });
        for (const outcome of await stage.outcomes(tx)) {
          const index = outcome.line;
          if (outcome.reason?.code === 'duplicateLine') results[index] = { index, status: 'duplicate' };
          else if (outcome.reason)
            results[index] = { index, status: 'rejected', reason: reasonText(outcome.reason) };
          else if (outcome.stored === null) results[index] = { index, status: 'accepted' };
          else if (outcome.same) results[index] = { index, status: 'duplicate' };
          else if (body.corrections) results[index] = { index, status: 'corrected' };
          else {
            results[index] = {
              index,
              status: 'rejected',
              reason: `another value (${microToKwhText(outcome.stored)}) is already stored at this instant; send corrections: true to replace it.`,
            };
          }
        }
        await addChannels(
          tx,
          rows
            .filter((row) => results[row.line]?.status === 'accepted')
            .map((row) => ({ meterId: row.meterId, channel: row.channel })),
        );
        await stage.store(tx, SOURCE_DEVICE, false);
        if (body.corrections) await stage.correct(tx, actor, 'sent again by a device');
        await touchChains(tx, [...new Set(rows.map((row) => row.meterId))]);
        changed = [...stage.changedMeterIds];
        if (changed.length > 0) await this.added?.added(tx, changed);
      }
      await recordAudit(tx, actor, {
        action: 'readings.ingest',
        targetType: 'readings',
        targetId: null,
        detail: { readings: body.readings.length, ...count(results) },
      });
    });
    if (changed.length > 0) this.added?.committed();
    return { ...count(results), results };
  }
}

function count(results: readonly Outcome[]) {
  let accepted = 0;
  let duplicates = 0;
  let corrected = 0;
  let rejected = 0;
  for (const r of results) {
    if (r.status === 'accepted') accepted++;
    else if (r.status === 'duplicate') duplicates++;
    else if (r.status === 'corrected') corrected++;
    else rejected++;
  }
  return { accepted, duplicates, corrected, rejected };
}
