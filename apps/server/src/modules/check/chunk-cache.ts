/** One month of one meter's readings, decoded: epoch ms, register in milli-units, quality. */
export interface MonthColumns {
  t: Float64Array;
  milli: Float64Array;
  quality: Uint8Array;
}

interface Entry {
  version: number;
  columns: MonthColumns;
  bytes: number;
}

/**
 * The months this process decoded lately, each with the version of the stored chunk it came
 * from. The database stays the authority: a reader sends the versions it holds and gets bytes only
 * for months stored since, so a chunk rebuilt by another process is never answered stale. Least
 * recently used months go first once `maxBytes` is reached.
 */
export class DecodedChunkCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The versions held for these months of a meter (to send with the chunk query). */
  versions(meterId: number, months: number[]): number[] {
    const held: number[] = [];
    for (const month of months) {
      const entry = this.entries.get(key(meterId, month));
      if (entry) held.push(entry.version);
    }
    return held;
  }

  /** The decoded month if this exact version is held. */
  get(meterId: number, month: number, version: number): MonthColumns | undefined {
    const id = key(meterId, month);
    const entry = this.entries.get(id);
    if (!entry || entry.version !== version) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.columns;
  }

  set(meterId: number, month: number, version: number, columns: MonthColumns): void {
    const id = key(meterId, month);
    this.remove(id);
    const bytes = columns.t.byteLength + columns.milli.byteLength + columns.quality.byteLength;
    if (bytes > this.maxBytes) return;
    this.entries.set(id, { version, columns, bytes });
    this.bytes += bytes;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  /** Bytes of decoded columns held now. */
  get size(): number {
    return this.bytes;
  }

  private remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.bytes;
  }
}

const key = (meterId: number, month: number) => `${meterId}:${month}`;
