import { statfs } from 'node:fs/promises';

/** Bytes this process may still write on the file system that holds `dir`; null when unreadable. */
export async function freeBytes(dir: string): Promise<number | null> {
  try {
    const stats = await statfs(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}
