import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { limitUpload } from './upload-limit.ts';

const SUFFIX = '.upload';

/** An uploaded file, whole on disk. */
export interface SpooledFile {
  readonly bytes: number;
  open(): Readable;
  remove(): Promise<void>;
}

/**
 * Writes an upload to a file in `dir` as it arrives, at most `maxBytes` (413 past it), so that no
 * database work waits for bytes still on the network: a slow or stalled upload holds a file
 * handle, not a connection. The file is removed again when the upload fails.
 */
export async function spoolUpload(upload: Readable, dir: string, maxBytes: number): Promise<SpooledFile> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${randomUUID()}${SUFFIX}`);
  let bytes = 0;
  const counted = limitUpload(upload, maxBytes).on('data', (chunk: Buffer) => (bytes += chunk.length));
  try {
    await pipeline(counted, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  return { bytes, open: () => createReadStream(file), remove: () => rm(file, { force: true }) };
}

/** Removes the uploads a stopped server left behind (none of them was stored). */
export async function removeLeftoverUploads(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => []);
  await Promise.all(
    names.filter((name) => name.endsWith(SUFFIX)).map((name) => rm(path.join(dir, name), { force: true })),
  );
}
