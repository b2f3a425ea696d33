import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open as openFile, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { limitUpload } from './upload-limit.ts';

const SUFFIX = '.upload';

/** An uploaded file, whole on disk. */
export interface SpooledFile {
  readonly path: string;
  readonly bytes: number;
  open(): Readable;
  /** The file's first `bytes` as text (for detecting its format). */
  head(bytes: number): Promise<string>;
  remove(): Promise<void>;
}

/** A file already on disk, as a spooled upload. */
export function spooledFile(file: string, bytes: number): SpooledFile {
  return {
    path: file,
    bytes,
    open: () => createReadStream(file),
    async head(count: number) {
      const handle = await openFile(file, 'r');
      try {
        const buffer = Buffer.alloc(Math.min(count, bytes));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        return buffer.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
    },
    remove: () => rm(file, { force: true }),
  };
}

/**
 * Writes an upload to a file in `dir` as it arrives, at most `maxBytes` (413 past it), so that no
 * database work waits for bytes still on the network: a slow or stalled upload holds a file
 * handle, not a connection. The file is removed again when the upload fails.
 */
export async function spoolUpload(
  upload: Readable,
  dir: string,
  maxBytes: number,
  name: string = randomUUID(),
): Promise<SpooledFile> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${name}${SUFFIX}`);
  let bytes = 0;
  const counted = limitUpload(upload, maxBytes).on('data', (chunk: Buffer) => (bytes += chunk.length));
  try {
    await pipeline(counted, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  return spooledFile(file, bytes);
}

/** Removes the uploads a stopped server left behind (none of them was stored). */
export async function removeLeftoverUploads(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => []);
  await Promise.all(
    names.filter((name) => name.endsWith(SUFFIX)).map((name) => rm(path.join(dir, name), { force: true })),
  );
}

/** The uploads in `dir`: each one's id (its name without the suffix), size and last write. */
export async function spooledUploads(
  dir: string,
): Promise<{ id: string; bytes: number; modifiedMs: number }[]> {
  const names = (await readdir(dir).catch(() => [])).filter((name) => name.endsWith(SUFFIX));
  const files = await Promise.all(
    names.map(async (name) => {
      const info = await stat(path.join(dir, name)).catch(() => undefined);
      return info && { id: name.slice(0, -SUFFIX.length), bytes: info.size, modifiedMs: info.mtimeMs };
    }),
  );
  return files.filter((file) => file !== undefined);
}
