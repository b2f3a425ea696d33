import type { AccessDataKind } from '@cm/contracts/access-log.ts';
import type { SqlRunner } from '../../db/client.ts';
import { insertAccessRows, type NewAccessRow } from './access-log.queries.ts';
import type { Reader } from './reader.ts';

/** One read of one or more meters' data. */
export interface AccessRead {
  meterIds: readonly number[];
  reader: Reader;
  data: readonly AccessDataKind[];
  /** The range read (`toMs` excluded), or null when the read has none (a meter's details). */
  fromMs: number | null;
  toMs: number | null;
  /** The call or event (`GetMeterInfo`, `DownloadMyData`, `alert.fired`…). */
  what: string;
}

/** What the modules that read data need of the log. */
export interface AccessRecording {
  record(read: AccessRead): Promise<void>;
}

interface Options {
  /** How often the entries waiting are written. */
  everyMs: number;
  /** Entries per INSERT. */
  batch: number;
  /** Past this many entries waiting, a read waits until they are written (back-pressure). */
  highWater: number;
}

const DEFAULTS: Options = { everyMs: 1_000, batch: 1_000, highWater: 20_000 };

/**
 * The access log's writer. A read is kept in memory and written with others in one INSERT within
 * `everyMs` (or at once when the entries pile up), so that the check page pays no round trip for
 * it. No entry is dropped: a failed write keeps its entries for the next try (and is logged);
 * past `highWater` entries waiting, the reads themselves wait for the write, and fail with it.
 * What a crash of the process takes with it is at most the last `everyMs` of entries
 * (docs/connect-my-data.md, "Who read my data").
 */
export class AccessRecorder implements AccessRecording {
  private waiting: NewAccessRow[] = [];
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly options: Options;

  constructor(
    private readonly db: SqlRunner,
    private readonly log: { error: (detail: object, message: string) => void },
    options: Partial<Options> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Keeps the read; resolves at once unless too many wait, then once they are written. */
  record(read: AccessRead): Promise<void> {
    const at = new Date().toISOString();
    const common = {
      at,
      channel: read.reader.channel,
      reader_name: read.reader.name,
      reader_user_id: read.reader.userId,
      reader_api_key_id: read.reader.apiKeyId,
      data: [...read.data],
      range_from: read.fromMs === null ? null : new Date(read.fromMs).toISOString(),
      range_to: read.toMs === null ? null : new Date(read.toMs).toISOString(),
      what: read.what,
    };
    for (const meterId of new Set(read.meterIds)) this.waiting.push({ meter_id: meterId, ...common });
    if (this.waiting.length >= this.options.highWater) return this.flush();
    if (this.waiting.length >= this.options.batch) this.flushSoon();
    return Promise.resolve();
  }

  /** Writes every entry waiting now (after the write under way); rejects when a write fails. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing.catch(() => undefined);
    if (this.waiting.length === 0) return;
    this.writing = this.writeAll().finally(() => {
      this.writing = undefined;
    });
    await this.writing;
  }

  /** Writes every `everyMs` until stopped. */
  start(): void {
    this.timer = setInterval(() => this.flushSoon(), this.options.everyMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what waits. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private flushSoon(): void {
    void this.flush().catch(() => undefined);
  }

  private async writeAll(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.batch);
      try {
        await insertAccessRows(this.db, batch);
      } catch (error) {
        // Back to the front, in order: written at the next try.
        this.waiting.unshift(...batch);
        this.log.error(
          { err: error, waiting: this.waiting.length },
          'access log: entries not written yet; tried again',
        );
        throw error;
      }
    }
  }
}
