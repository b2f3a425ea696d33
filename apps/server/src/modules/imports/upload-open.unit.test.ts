import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUpload, utf16ToUtf8 } from './upload-open.ts';
import { spooledFile } from './upload-spool.ts';

// UTF-16 to UTF-8, whatever the chunks: a character may be split between two of them (a zip
// entry's stream cuts anywhere), surrogate pairs included.

const SAMPLE = 'meter_number;zeitstempel;kWh\r\nZÄHLER-€1;2024-03-31 02:30;0,25 ⚡ 😀\r\n';
const chunked = (bytes: Buffer, size: number) =>
  Readable.from(
    Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
      bytes.subarray(i * size, (i + 1) * size),
    ),
  );
const le = (value: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(value, 'utf16le')]);
const be = (value: string) =>
  Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(value, 'utf16le').swap16()]);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cm-open-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('UTF-16 uploads', () => {
  it('decodes both byte orders in chunks of any size, dropping the BOM', async () => {
    for (const size of [1, 3, 7, 64]) {
      expect(await text(chunked(le(SAMPLE), size).pipe(utf16ToUtf8(false))), `LE ${size}`).toBe(SAMPLE);
      expect(await text(chunked(be(SAMPLE), size).pipe(utf16ToUtf8(true))), `BE ${size}`).toBe(SAMPLE);
    }
  });

  it('turns a spooled UTF-16 file into UTF-8 in place, BOM or not', async () => {
    for (const [name, bytes, encoding] of [
      ['le.csv', le(SAMPLE), 'utf-16le'],
      ['be.csv', be(SAMPLE), 'utf-16be'],
      ['bare.csv', Buffer.from(SAMPLE.replace(/[^\x20-\x7e\r\n]/g, '?'), 'utf16le'), 'utf-16le'],
    ] as const) {
      const file = path.join(dir, name);
      await writeFile(file, bytes);
      const opened = await openUpload(spooledFile(file, bytes.length), 1 << 20);
      expect(opened.encoding, name).toBe(encoding);
      const utf8 = await readFile(file, 'utf8');
      expect(opened.file.bytes).toBe(Buffer.byteLength(utf8));
      expect(utf8.startsWith('meter_number;')).toBe(true);
    }
  });
});
