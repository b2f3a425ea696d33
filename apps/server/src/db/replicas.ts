import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, SqlRunner } from './client.ts';

// Streaming replicas for the check page's reads (DATABASE_REPLICA_URLS). A request says whether its
// reads may go to a replica and which write it must see (a WAL position); a read goes to a replica
// only when that replica answers, has replayed that position, and lags the primary by no more than
// the bound. Everything else — writes, transactions, background work, a request without a routing
// intent — runs on the primary, and so does a read whose replica fails mid-way.

/** What one request's reads may use: a replica or not, and the primary's WAL position they must see. */
export interface ReadIntent {
  replicaAllowed: boolean;
  /** A write of this caller's (its WAL position, from the cookie or header): reads must include it. */
  after: bigint;
  /** Where the request's reads went, for the answer's X-CM-Read-From header. */
  servedBy?: string;
}

const intents = new AsyncLocalStorage<ReadIntent>();

/** Runs `work` (and everything it starts) with `intent` as its routing intent. */
export function runWithReadIntent<T>(intent: ReadIntent, work: () => T): T {
  return intents.run(intent, work);
}

/** The routing intent of the request being served, if any. */
export const currentReadIntent = (): ReadIntent | undefined => intents.getStore();

/** A PostgreSQL WAL position (`16/B374D848`) as a number. */
export function parseWalPosition(text: string | null | undefined): bigint | null {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text?.trim() ?? '');
  if (!match?.[1] || !match[2]) return null;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** The text form PostgreSQL uses for a WAL position. */
export function formatWalPosition(position: bigint): string {
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
}

export type ReplicaState = 'ok' | 'lagging' | 'down';

/** A replica as health reports it. */
export interface ReplicaStatus {
  name: string;
  state: ReplicaState;
  /** How far behind the primary it was at the last check (null: not known). */
  lagMs: number | null;
  /** Reads it answered since the server started. */
  reads: number;
  /** Why it is down, when it is. */
  problem?: string;
}

interface Replica {
  name: string;
  db: Db;
  state: ReplicaState;
  replayed: bigint;
  lagMs: number | null;
  reads: number;
  problem?: string;
}

/**
 * How far a replica that replayed up to `replayed` lags, from the primary's positions sampled over
 * time (oldest first): the age of the oldest sample it has not replayed yet, 0 when it has them all.
 */
export function lagOf(replayed: bigint, samples: readonly { at: number; position: bigint }[], nowMs: number) {
  const missing = samples.find((sample) => sample.position > replayed);
  return missing ? nowMs - missing.at : 0;
}

const isConnectionFailure = (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  // No SQLSTATE (the socket failed: ECONNREFUSED, ECONNRESET…), a connection exception (08) or an
  // operator intervention (57P: the server shutting down).
  const isSqlState = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
  return !isSqlState || code.startsWith('08') || code.startsWith('57P');
};

export interface ReplicaOptions {
  /** A replica further behind than this is not read from. */
  maxLagMs: number;
  /** How often the primary's position and each replica's are read. */
  pollMs: number;
  /** Told why a replica went down (for the log: the open health answer names no address or role). */
  onDown?: (name: string, problem: string) => void;
}

/** The primary and its streaming replicas: where each read goes, and how far each replica lags. */
export class ReplicaSet {
  private readonly replicas: Replica[];
  private samples: { at: number; position: bigint }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private next = 0;
  private primaryReads = 0;

  constructor(
    private readonly primary: Db,
    replicas: readonly { name: string; db: Db }[],
    private readonly options: ReplicaOptions,
  ) {
    this.replicas = replicas.map((replica) => ({
      ...replica,
      state: 'down',
      replayed: 0n,
      lagMs: null,
      reads: 0,
      problem: 'not checked yet',
    }));
  }

  get size(): number {
    return this.replicas.length;
  }

  /** Checks every replica now and then every `pollMs`. */
  async start(): Promise<void> {
    if (this.replicas.length === 0) return;
    await this.check();
    this.timer = setInterval(() => void this.check(), this.options.pollMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.replicas.map((replica) => replica.db.close()));
  }

  /** The primary's WAL position now: what a caller's next reads must include after its write. */
  async walPosition(): Promise<bigint | null> {
    const rows = await this.primary.query<{ position: string }>(
      'SELECT pg_current_wal_lsn()::text AS position',
      [],
      { prepare: 'cm_wal_position' },
    );
    return parseWalPosition(rows[0]?.position);
  }

  status(): { primaryReads: number; replicas: ReplicaStatus[] } {
    return {
      primaryReads: this.primaryReads,
      replicas: this.replicas.map(({ name, state, lagMs, reads, problem }) => ({
        name,
        state,
        lagMs,
        reads,
        ...(problem ? { problem } : {}),
      })),
    };
  }

  /**
   * A database handle whose plain queries go where the current request's intent allows (a replica
   * that has caught up, else the primary); transactions and COPY always run on the primary.
   */
  routed(): Db {
    const route = async <T>(run: (runner: SqlRunner) => Promise<T>): Promise<T> => {
      const replica = this.pick();
      if (!replica) {
        this.primaryReads++;
        return run(this.primary);
      }
      try {
        const result = await run(replica.db);
        replica.reads++;
        return result;
      } catch (error) {
        if (isConnectionFailure(error)) this.markDown(replica, error);
        const intent = currentReadIntent();
        if (intent) intent.servedBy = 'primary';
        this.primaryReads++;
        return run(this.primary);
      }
    };
    return {
      ...this.primary,
      query: (text, params, options) => route((runner) => runner.query(text, params, options)),
      queryArrays: (text, params) => route((runner) => runner.queryArrays(text, params)),
    };
  }

  private pick(): Replica | undefined {
    const intent = currentReadIntent();
    if (!intent?.replicaAllowed || this.replicas.length === 0) return undefined;
    for (let tried = 0; tried < this.replicas.length; tried++) {
      const replica = this.replicas[(this.next + tried) % this.replicas.length];
      if (replica && replica.state === 'ok' && replica.replayed >= intent.after) {
        this.next = (this.next + tried + 1) % this.replicas.length;
        intent.servedBy = replica.name;
        return replica;
      }
    }
    intent.servedBy = 'primary';
    return undefined;
  }

  private markDown(replica: Replica, error: unknown) {
    const problem = error instanceof Error ? error.message : String(error);
    if (replica.state !== 'down' || replica.problem !== problem) this.options.onDown?.(replica.name, problem);
    replica.state = 'down';
    replica.lagMs = null;
    replica.problem = problem;
  }

  /** Samples the primary's position, then each replica's replayed position and lag. */
  private async check(): Promise<void> {
    const now = Date.now();
    const position = await this.walPosition().catch(() => null);
    if (position !== null) {
      this.samples.push({ at: now, position });
      // Enough history to measure a lag well past the bound.
      const keepMs = Math.max(60_000, this.options.maxLagMs * 4);
      while ((this.samples[0]?.at ?? now) < now - keepMs) this.samples.shift();
    }
    await Promise.all(
      this.replicas.map(async (replica) => {
        try {
          const rows = await replica.db.query<{ standby: boolean; replayed: string | null }>(
            'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed',
          );
          const row = rows[0];
          const replayed = parseWalPosition(row?.replayed);
          if (!row?.standby || replayed === null) {
            this.markDown(replica, new Error('not a standby (promoted, or not replicating)'));
            return;
          }
          replica.replayed = replayed;
          replica.lagMs = lagOf(replayed, this.samples, Date.now());
          replica.state = replica.lagMs <= this.options.maxLagMs ? 'ok' : 'lagging';
          delete replica.problem;
        } catch (error) {
          this.markDown(replica, error);
        }
      }),
    );
  }
}
