import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines } from './read-lines.ts';

async function linesOf(chunks: Array<string | Buffer>, maxLength = 100): Promise<string[]> {
  const lines: string[] = [];
  for await (const batch of readLines(Readable.from(chunks), maxLength)) lines.push(...batch);
  return lines;
}

describe('readLines', () => {
  it('splits on \\n, \\r\\n and a lone \\r, across chunk boundaries and inside UTF-8 characters', async () => {
    const euro = Buffer.from('€');
    expect(
      await linesOf([
        'a,1\r',
        '\nb,2\nc,',
        '3\rd',
        Buffer.concat([Buffer.from(',4\n'), euro.subarray(0, 1)]),
        euro.subarray(1),
        '\n',
      ]),
    ).toEqual(['a,1', 'b,2', 'c,3', 'd,4', '€']);
    expect(await linesOf(['x\n\ny'])).toEqual(['x', '', 'y']);
    expect(await linesOf([])).toEqual([]);
  });

  it('answers an over-long line cut to one character past the limit, never holding the rest', async () => {
    // 20 MB on one line, as the review sent: 320 chunks of 64 KiB.
    const chunk = 'x'.repeat(65_536);
    const longLine = Array.from({ length: 320 }, () => chunk);
    const lines = await linesOf(['head\n', ...longLine, '\nafter\n'], 10_000);
    expect(lines.map((line) => line.length)).toEqual([4, 10_001, 5]);
    expect(lines[2]).toBe('after');
  });
});
