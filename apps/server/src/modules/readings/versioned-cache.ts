interface Entry<T> {
  version: number;
  value: T;
  bytes: number;
}

/**
 * Values this process made lately, each with the version of what it was made from: the months it
 * decoded, with their stored chunk's version (readings-store.ts: the database stays the authority,
 * a reader sends the versions it holds and gets bytes only for months stored since, so a chunk
 * rebuilt by another process is never answered stale); the readings engine's priced walks, with
 * their number of steps (engine/remembered-walks.ts). The least recently used go first once
 * `maxBytes` is reached.
 */
export class VersionedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The versions held for these keys (a reader of chunks sends them with its query). */
  versions(keys: readonly string[]): number[] {
    const held: number[] = [];
    for (const id of keys) {
      const entry = this.entries.get(id);
      if (entry) held.push(entry.version);
    }
    return held;
  }

  /** The decoded value if this exact version is held. */
  get(id: string, version: number): T | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.version !== version) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.value;
  }

  set(id: string, version: number, value: T, bytes: number): void {
    this.remove(id);
    if (bytes > this.maxBytes) return;
    this.entries.set(id, { version, value, bytes });
    this.bytes += bytes;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  /** Bytes of decoded values held now. */
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
