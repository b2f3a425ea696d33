import { describe, expect, it } from 'vitest';
import { csvText, csvTextValue } from './csv.ts';

describe('CSV text cells', () => {
  it('defuses every formula start, quotes what needs quoting, and reads back to the same text', () => {
    const cases: Array<[string, string]> = [
      ['EM-1', 'EM-1'],
      ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
      ['+1', "'+1"],
      ['-2', "'-2"],
      ['@SUM(A1)', "'@SUM(A1)"],
      ['\tx', "'\tx"],
      ['a,b', '"a,b"'],
      ['line\nbreak', '"line\nbreak"'],
      ["'=kept", "''=kept"],
    ];
    for (const [value, cell] of cases) {
      expect(csvText(value), value).toBe(cell);
      const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
      expect(csvTextValue(unquoted), value).toBe(value);
    }
    expect(csvText('a;b', ';')).toBe('"a;b"');
    expect(csvText('a;b', ',')).toBe('a;b');
  });
});
