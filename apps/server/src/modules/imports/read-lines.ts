import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

// readline's line ends (\n, \r\n, or a lone \r), split natively a chunk at a time.
const LINE_BREAK = /\r\n|\n|\r/;

/**
 * The lines of a stream, a chunk's worth at a time: one async step per chunk rather than per line,
 * which matters at a million lines. A line longer than `maxLength` is answered cut to
 * `maxLength + 1` characters (so that its reader can refuse it as too long), and the rest of it is
 * skipped as it streams by: memory and time stay bounded by the chunk size, however long a line is.
 */
export async function* readLines(input: Readable, maxLength: number): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  const keep = maxLength + 1;
  // The line being read, at most `keep` characters; and whether the last chunk ended in \r.
  let partial = '';
  let afterCr = false;
  const extend = (line: string, more: string) =>
    line.length >= keep ? line : (line + more.slice(0, keep - line.length)).slice(0, keep);
  for await (const chunk of input) {
    let text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    // A \r\n split across two chunks is one line end: its \r already ended the line.
    if (afterCr && text.startsWith('\n')) text = text.slice(1);
    afterCr = text.endsWith('\r');
    const parts = text.split(LINE_BREAK);
    if (parts.length === 1) {
      partial = extend(partial, text);
      continue;
    }
    const lines = parts.slice(0, -1);
    lines[0] = extend(partial, lines[0] ?? '');
    partial = extend('', parts.at(-1) ?? '');
    yield lines;
  }
  const last = extend(partial, decoder.end());
  if (last !== '') yield [last];
}
