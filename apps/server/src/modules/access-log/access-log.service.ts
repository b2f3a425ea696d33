import { Readable } from 'node:stream';
import {
  ACCESS_LOG_CSV_HEADER,
  ACCESS_LOG_KEPT_YEARS,
  type AccessChannel,
  type AccessDataKind,
  type AccessLog,
  type AccessLogQuery,
} from '@cm/contracts/access-log.ts';
import { CSV_LINE_END, csvText } from '@cm/contracts/csv.ts';
import { isoInZone } from '@cm/contracts/zoned-time.ts';
import type { SqlRunner } from '../../db/client.ts';
import { HttpError } from '../../http-error.ts';
import type { AuthContext } from '../access/index.ts';
import { accessRowsAfter, listAccessRows, purgeAccessRows, type AccessRow } from './access-log.queries.ts';
import type { AccessRecorder } from './recorder.ts';

/** A meter as the log's reader needs it: the caller may see it. */
export interface LoggedMeter {
  id: number;
  meterNumber: string;
  timeZone: string;
}

/** Finds a meter the caller may see (the directory's, handed in by app.ts), else undefined. */
export type FindVisibleMeter = (caller: AuthContext, meterNumber: string) => Promise<LoggedMeter | undefined>;

const CSV_PAGE = 2_000;
const PURGE_BATCH = 10_000;

const presentEntry = (row: AccessRow) => ({
  id: row.id,
  at: row.at.toISOString(),
  channel: row.channel as AccessChannel,
  by: row.reader_name,
  data: row.data as AccessDataKind[],
  from: row.range_from?.toISOString() ?? null,
  to: row.range_to?.toISOString() ?? null,
  what: row.what,
});

/** "Who read my data": a meter's log for its customer and for administrators, as JSON or CSV. */
export class AccessLogService {
  constructor(
    private readonly db: SqlRunner,
    private readonly recorder: AccessRecorder,
    private readonly findMeter: FindVisibleMeter,
  ) {}

  async list(caller: AuthContext, query: AccessLogQuery): Promise<AccessLog> {
    const meter = await this.meter(caller, query.meterNumber);
    const { rows, total } = await listAccessRows(this.db, meter.id, {
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return {
      meterNumber: meter.meterNumber,
      items: rows.map(presentEntry),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  /** The meter's whole log, oldest first, times in its location's zone: a file name and the CSV. */
  async csv(caller: AuthContext, meterNumber: string): Promise<{ fileName: string; body: Readable }> {
    const meter = await this.meter(caller, meterNumber);
    const fileName = `who-read-${meter.meterNumber.replace(/[^\w.-]/g, '_')}.csv`;
    return { fileName, body: Readable.from(this.csvLines(meter)) };
  }

  /** Deletes entries older than three years (the hourly housekeeping). */
  async purge(nowMs = Date.now()): Promise<number> {
    const before = new Date(nowMs);
    before.setUTCFullYear(before.getUTCFullYear() - ACCESS_LOG_KEPT_YEARS);
    let purged = 0;
    for (;;) {
      const gone = await purgeAccessRows(this.db, before, PURGE_BATCH);
      purged += gone;
      if (gone < PURGE_BATCH) return purged;
    }
  }

  /** The meter, once the entries still in memory are written (the log shown is never behind). */
  private async meter(caller: AuthContext, meterNumber: string): Promise<LoggedMeter> {
    const meter = await this.findMeter(caller, meterNumber);
    if (!meter) throw new HttpError(404, 'Meter not found. Check the meter number.', 'meterNumber');
    await this.recorder.flush();
    return meter;
  }

  private async *csvLines(meter: LoggedMeter): AsyncGenerator<string> {
    yield `${ACCESS_LOG_CSV_HEADER}${CSV_LINE_END}`;
    const time = (at: Date | null) => (at === null ? '' : isoInZone(at.getTime(), meter.timeZone));
    let after = 0;
    for (;;) {
      const rows = await accessRowsAfter(this.db, meter.id, after, CSV_PAGE);
      let chunk = '';
      for (const row of rows)
        chunk += `${[time(row.at), row.channel, csvText(row.reader_name), row.data.join(' '), time(row.range_from), time(row.range_to), csvText(row.what)].join(',')}${CSV_LINE_END}`;
      if (chunk) yield chunk;
      const last = rows[rows.length - 1];
      if (rows.length < CSV_PAGE || !last) return;
      after = last.id;
    }
  }
}
