import { createReadStream, createWriteStream } from 'node:fs';
import { open as openFile, rename, rm, stat } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { HttpError } from '../../http-error.ts';
import { printable } from './printable.ts';
import { spooledFile, type SpooledFile } from './upload-spool.ts';
import { formatBytes } from './upload-limit.ts';

// An uploaded file made into the UTF-8 text the readers take: a ZIP of one file or a gzip opened,
// UTF-16 (as Excel saves "Unicode text") turned into UTF-8, anything else binary refused as "not
// a text file". Each step streams from disk to disk: an archive is never expanded in memory, and
// its expansion stops at the import size limit or when it grows more than MAX_RATIO-fold.

/** Expanding past this many times the compressed size (beyond RATIO_FROM bytes) is a zip bomb. */
export const MAX_RATIO = 500;
const RATIO_FROM = 1024 * 1024;
// How much of the text is looked at to tell text from binary.
const SNIFF_BYTES = 8192;
// Listing an archive stops here: nobody uploads more files than this by mistake.
const MAX_ENTRIES = 1000;

const ACCEPTED =
  'Check Meter imports CSV, Green Button XML and NEM12/NEM13 files as text, or a ZIP or gzip of one such file.';

/** What was done to the upload to make it text. */
export interface OpenedUpload {
  file: SpooledFile;
  /** The archive the text came out of, and the file's name inside a ZIP. */
  container: { kind: 'zip' | 'gzip'; name: string | null } | null;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
  /** What the detection reason should say of it, or ''. */
  note: string;
}

const refuse = (status: number, message: string) => new HttpError(status, message, 'body');

async function headOf(file: string, bytes: number): Promise<Buffer> {
  const handle = await openFile(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The file's first bytes as a refusal may show them. */
const shownHead = (head: Buffer) => printable(head.subarray(0, 24).toString('latin1'), 40);

/** Counts the expanded bytes: past `maxBytes`, or past MAX_RATIO times `compressed`, the expansion stops. */
function expansionLimit(maxBytes: number, compressed: number, what: string): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > maxBytes) {
        done(
          refuse(
            413,
            `${what} expands past the import limit of ${formatBytes(maxBytes)} (${maxBytes} bytes), so nothing was stored. Split it into smaller files.`,
          ),
        );
        return;
      }
      if (total > RATIO_FROM && total > MAX_RATIO * compressed) {
        done(
          refuse(
            413,
            `${what} expands more than ${MAX_RATIO}-fold (${formatBytes(compressed)} to over ${formatBytes(total)}): refused as a possible zip bomb; nothing was stored.`,
          ),
        );
        return;
      }
      done(null, chunk);
    },
  });
}

/** UTF-16 (either byte order) to UTF-8, a chunk at a time; the byte-order mark dropped. */
export function utf16ToUtf8(bigEndian: boolean): Transform {
  const decoder = new TextDecoder('utf-16le');
  let carry: Buffer | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let bytes = carry ? Buffer.concat([carry, chunk]) : chunk;
      carry = undefined;
      if (bigEndian) {
        const even = bytes.length - (bytes.length % 2);
        if (even < bytes.length) carry = Buffer.from(bytes.subarray(even));
        bytes = Buffer.from(bytes.subarray(0, even)).swap16();
      }
      done(null, Buffer.from(decoder.decode(bytes, { stream: true }), 'utf8'));
    },
    flush(done) {
      done(null, Buffer.from(decoder.decode(), 'utf8'));
    },
  });
}

/** UTF-16 by its byte-order mark, or by the NUL in every other byte of text without one. */
function utf16Of(head: Buffer): 'utf-16le' | 'utf-16be' | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const pairs = Math.floor(Math.min(head.length, 1024) / 2);
  if (pairs < 4) return undefined;
  let lowNul = 0;
  let highNul = 0;
  for (let i = 0; i < pairs; i++) {
    if (head[2 * i] === 0) lowNul++;
    if (head[2 * i + 1] === 0) highNul++;
  }
  if (highNul === pairs && lowNul === 0) return 'utf-16le';
  if (lowNul === pairs && highNul === 0) return 'utf-16be';
  return undefined;
}

/** Whether the bytes read as text: no NUL, and hardly any other control character. */
function isText(head: Buffer): boolean {
  let controls = 0;
  for (const byte of head) {
    if (byte === 0) return false;
    // Tab, line feed, form feed, carriage return and escape occur in text files.
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b)
      controls++;
  }
  return controls * 100 <= head.length;
}

const isZip = (head: Buffer) =>
  head[0] === 0x50 && head[1] === 0x4b && (head[2] === 0x03 || head[2] === 0x05) && head[3] === head[2] + 1;
const isGzip = (head: Buffer) => head[0] === 0x1f && head[1] === 0x8b;

function openZip(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (error, zip) => (error ? reject(error) : resolve(zip)),
    );
  });
}

/** The archive's files (folders and macOS resource forks left out), at most MAX_ENTRIES + 1. */
function filesOf(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const files: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      const name = entry.fileName;
      const base = name.slice(name.lastIndexOf('/') + 1);
      const isJunk =
        name.endsWith('/') || name.startsWith('__MACOSX/') || base.startsWith('._') || base === '.DS_Store';
      if (!isJunk) files.push(entry);
      if (files.length > MAX_ENTRIES) resolve(files);
      else zip.readEntry();
    });
    zip.once('end', () => resolve(files));
    zip.once('error', reject);
    zip.readEntry();
  });
}

function entryStream(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream)));
  });
}

const notAnArchive = (kind: string, error: unknown) =>
  refuse(
    400,
    `The ${kind} archive cannot be opened (${printable(error instanceof Error ? error.message : String(error), 120)}): it may be damaged or cut short; nothing was stored.`,
  );

/** The one data file of a ZIP, expanded into `target`; its name. */
async function expandZip(source: string, target: string, maxBytes: number): Promise<string> {
  let zip: ZipFile;
  try {
    zip = await openZip(source);
  } catch (error) {
    throw notAnArchive('ZIP', error);
  }
  try {
    const files = await filesOf(zip).catch((error: unknown) => {
      throw notAnArchive('ZIP', error);
    });
    const names = files.map((entry) => `"${printable(entry.fileName, 80)}"`);
    if (files.some((entry) => /^\[Content_Types\]\.xml$/.test(entry.fileName))) {
      throw refuse(
        415,
        'This is an Office document (an Excel workbook?), not a text file: save the sheet as CSV (UTF-8) and upload that.',
      );
    }
    const [entry] = files;
    if (!entry) throw refuse(400, 'The ZIP archive holds no file; nothing was stored.');
    if (files.length > 1) {
      throw refuse(
        400,
        `The ZIP archive holds ${files.length > MAX_ENTRIES ? `more than ${MAX_ENTRIES}` : files.length} files (${names.slice(0, 10).join(', ')}${files.length > 10 ? ', …' : ''}): upload one file at a time, or a ZIP of one file; nothing was stored.`,
      );
    }
    const what = `The ZIP's file ${names[0] ?? ''}`;
    if (entry.isEncrypted())
      throw refuse(415, `${what} is encrypted: upload it unencrypted; nothing was stored.`);
    if (entry.uncompressedSize > maxBytes) {
      throw refuse(
        413,
        `${what} is ${formatBytes(entry.uncompressedSize)} expanded, past the import limit of ${formatBytes(maxBytes)} (${maxBytes} bytes); nothing was stored. Split it into smaller files.`,
      );
    }
    const stream = await entryStream(zip, entry).catch((error: unknown) => {
      throw notAnArchive('ZIP', error);
    });
    await pipeline(
      stream,
      expansionLimit(maxBytes, Math.max(1, entry.compressedSize), what),
      createWriteStream(target, { flags: 'wx', mode: 0o600 }),
    ).catch((error: unknown) => {
      throw error instanceof HttpError ? error : notAnArchive('ZIP', error);
    });
    return entry.fileName;
  } finally {
    zip.close();
  }
}

async function expandGzip(source: string, target: string, bytes: number, maxBytes: number): Promise<void> {
  await pipeline(
    createReadStream(source),
    createGunzip(),
    expansionLimit(maxBytes, Math.max(1, bytes), 'The gzip file'),
    createWriteStream(target, { flags: 'wx', mode: 0o600 }),
  ).catch((error: unknown) => {
    throw error instanceof HttpError ? error : notAnArchive('gzip', error);
  });
}

async function toUtf8(source: string, target: string, encoding: 'utf-16le' | 'utf-16be'): Promise<void> {
  await pipeline(
    createReadStream(source),
    utf16ToUtf8(encoding === 'utf-16be'),
    createWriteStream(target, { flags: 'wx', mode: 0o600 }),
  );
}

/** Runs `step` from the file into a new one, which then takes the file's place. */
async function replaceWith(file: string, step: (source: string, target: string) => Promise<void>) {
  const target = file.replace(/(\.upload)?$/, '.open.upload');
  try {
    await step(file, target);
    await rename(target, file);
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
}

/**
 * Makes a spooled upload the UTF-8 text its readers take, in place: opens a ZIP of one file or a
 * gzip (at most `maxBytes` expanded), turns UTF-16 into UTF-8, and refuses anything else that is
 * not text (415), naming what it saw in printable characters only. The caller removes the file
 * when this throws.
 */
export async function openUpload(upload: SpooledFile, maxBytes: number): Promise<OpenedUpload> {
  const path = upload.path;
  const notes: string[] = [];
  let container: OpenedUpload['container'] = null;
  let head = await headOf(path, SNIFF_BYTES);
  if (isZip(head)) {
    let name = '';
    await replaceWith(path, async (source, target) => {
      name = await expandZip(source, target, maxBytes);
    });
    container = { kind: 'zip', name };
    notes.push(`Opened from a ZIP archive ("${printable(name, 80)}").`);
  } else if (isGzip(head)) {
    await replaceWith(path, (source, target) => expandGzip(source, target, upload.bytes, maxBytes));
    container = { kind: 'gzip', name: null };
    notes.push('Opened from a gzip file.');
  }
  if (container) head = await headOf(path, SNIFF_BYTES);
  const utf16 = utf16Of(head);
  if (utf16) {
    await replaceWith(path, (source, target) => toUtf8(source, target, utf16));
    head = await headOf(path, SNIFF_BYTES);
    notes.push(`Read as ${utf16 === 'utf-16le' ? 'UTF-16LE' : 'UTF-16BE'} text.`);
  }
  if (!isText(head)) {
    const inside = container ? ` inside the ${container.kind === 'zip' ? 'ZIP' : 'gzip'} file` : '';
    throw refuse(
      415,
      `This is not a text file${inside} (it begins with "${shownHead(head)}"): ${ACCEPTED} Nothing was stored.`,
    );
  }
  return {
    file: container || utf16 ? spooledFile(path, (await stat(path)).size) : upload,
    container,
    encoding: utf16 ?? 'utf-8',
    note: notes.join(' '),
  };
}
