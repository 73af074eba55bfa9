/** A minimal zip writer for tests: any entry name (the hostile ones real tools refuse), stored or deflated. */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipFileSpec {
  name: string;
  content: string | Buffer;
  /** Deflate the data (default: stored). */
  deflate?: boolean;
  /** Lie about the uncompressed size in the headers (a zip bomb's trick). */
  declaredSize?: number;
  /** Unix mode for the external attributes, e.g. 0o120777 for a symlink. */
  mode?: number;
  /** The name's bytes as an archiver wrote them (e.g. GBK), and whether it set the UTF-8 flag (default: UTF-8, set). */
  nameBytes?: Buffer;
  utf8Flag?: boolean;
}

export function makeZip(files: ZipFileSpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const data = Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content);
    const stored = file.deflate ? deflateRawSync(data) : data;
    const name = file.nameBytes ?? Buffer.from(file.name, 'utf8');
    const flags = file.utf8Flag === false ? 0 : 0x800;
    const crc = crc32(data);
    const size = file.declaredSize ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(file.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, stored);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(file.deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((file.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
