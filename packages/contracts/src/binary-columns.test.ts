import { describe, expect, it } from 'vitest';
import { decodeBinaryColumns } from './binary-columns.ts';

/** A body assembled by hand from the layout in binary-columns.ts, byte by byte. */
function body(header: string, columns: number[]): Uint8Array {
  const text = new TextEncoder().encode(header);
  const length = [text.length & 0xff, (text.length >> 8) & 0xff, 0, 0];
  return Uint8Array.from([0x43, 0x4d, 0x43, 1, ...length, ...text, ...columns]);
}

describe('decodeBinaryColumns', () => {
  it('reads the documented layout: header, bitmap, scale, zigzag varint deltas', () => {
    const bytes = body(
      '{"meter":"EM-1","series":{"t":{"$col":0},"kwh":{"$col":1},"x":{"$col":2}}}',
      [
        // Column 0, integers: 3 values, no nulls, scale 10^5; 1,800,000 then +900,000 twice:
        // 18 → zigzag 36 (0x24), 9 → 18 (0x12), 9 → 18.
        1, 3, 0, 5, 0x24, 0x12, 0x12,
        // Column 1, millionths: 3 values, nulls, bitmap 0b101 (the middle one null), scale 10^3:
        // 1,500 (1.5 kWh) → zigzag 3,000 = 0xb8 0x17; 2,250 is +750 → zigzag 1,500 = 0xdc 0x0b.
        2, 3, 1, 0b101, 3, 0xb8, 0x17, 0xdc, 0x0b,
        // Column 2, doubles: 2 values, no nulls: −1.25 and 0.1 as IEEE 754 little-endian.
        3, 2, 0, 0, 0, 0, 0, 0, 0, 0xf4, 0xbf, 0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xb9, 0x3f,
      ],
    );
    expect(decodeBinaryColumns(bytes)).toEqual({
      meter: 'EM-1',
      series: { t: [1_800_000, 2_700_000, 3_600_000], kwh: [1.5, null, 2.25], x: [-1.25, 0.1] },
    });
  });

  it('reads a negative difference and a varint of several bytes', () => {
    // 200 then 100: deltas +200 (zigzag 400 = 0x90 0x03) and −100 (zigzag 199 = 0xc7 0x01).
    expect(decodeBinaryColumns(body('[{"$col":0}]', [1, 2, 0, 0, 0x90, 0x03, 0xc7, 0x01]))).toEqual([
      [200, 100],
    ]);
  });

  it('refuses another form, another version, a cut body and bytes left over', () => {
    expect(() => decodeBinaryColumns(new TextEncoder().encode('{"a":1}'))).toThrow(/Not a Check Meter/);
    const good = body('[{"$col":0}]', [1, 1, 0, 0, 0x02]);
    const later = Uint8Array.from(good);
    later[3] = 9;
    expect(() => decodeBinaryColumns(later)).toThrow(/version 9/);
    expect(() => decodeBinaryColumns(good.subarray(0, good.length - 1))).toThrow(/ends/);
    expect(() => decodeBinaryColumns(Uint8Array.from([...good, 0]))).toThrow(/after its last column/);
    expect(() => decodeBinaryColumns(body('[{"$col":0}]', [7, 1, 0]))).toThrow(/Unknown column kind 7/);
  });
});
