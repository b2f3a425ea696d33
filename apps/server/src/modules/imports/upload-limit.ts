import { Readable } from 'node:stream';
import { HttpError } from '../../http-error.ts';

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

/** A byte count as a person reads it: 2 GiB, 1.5 MiB, 800 bytes. */
export function formatBytes(bytes: number): string {
  let unit = 0;
  while (unit < UNITS.length - 1 && bytes >= 1024 ** (unit + 1)) unit++;
  const value = Math.round((bytes / 1024 ** unit) * 10) / 10;
  return `${value} ${UNITS[unit]}`;
}

/** 413: the file passed the import limit; nothing was stored. */
export function uploadTooLarge(maxBytes: number): HttpError {
  return new HttpError(
    413,
    `The file is larger than the import limit of ${formatBytes(maxBytes)} (${maxBytes} bytes), so nothing was stored. Split it into smaller files.`,
  );
}

/**
 * The upload's bytes, counted as they arrive: past `maxBytes` the stream fails with 413 and
 * reading stops. The upload itself is never destroyed (that would reset the connection before the
 * 413 goes out): once the import is over, `drainUpload` discards whatever was not read.
 */
export function limitUpload(upload: Readable, maxBytes: number): Readable {
  async function* counted(): AsyncGenerator<Buffer> {
    let total = 0;
    for await (const chunk of upload.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw uploadTooLarge(maxBytes);
      yield chunk;
    }
  }
  return Readable.from(counted(), { objectMode: false });
}

/**
 * Reads and discards the rest of an upload that was not read to its end (refused or too large),
 * so that the client, still sending, gets the answer instead of a reset connection. The server's
 * request timeout bounds how long this may take.
 */
export function drainUpload(upload: Readable): void {
  if (!upload.readableEnded && !upload.destroyed) upload.resume();
}
