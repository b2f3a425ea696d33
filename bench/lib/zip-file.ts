import { crc32, deflateRawSync } from 'node:zlib';

// A ZIP archive of one file, deflated (PKWARE APPNOTE 6.3.10: a local file header, the data, one
// central directory entry, the end record), for benchmarks that upload zipped files as utilities
// send them. No ZIP64: the file and the archive stay below 4 GiB.

/** The bytes of a ZIP holding `content` as `name`. */
export function zipOf(name: string, content: Buffer): Buffer {
  const fileName = Buffer.from(name, 'utf8');
  const data = deflateRawSync(content, { level: 6 });
  const crc = crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
  local.writeUInt16LE(0x0800, 6); // UTF-8 name
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4); // made by
  central.writeUInt16LE(20, 6); // needed
  central.writeUInt16LE(0x0800, 8);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  // Local header at offset 0 (bytes 42–45 stay 0).
  const centralOffset = local.length + fileName.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}
