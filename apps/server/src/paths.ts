import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The server package's folder (apps/server), found from this module's own place, which differs
 * between the TypeScript sources (src/) and the built bundle (dist/).
 */
function findServerRoot(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@cm/server'
    )
      return dir;
    if (path.dirname(dir) === dir)
      throw new Error('apps/server/package.json not found above the server code');
  }
}

export const serverRoot = findServerRoot();
/** The repository's root (the npm workspaces' root). */
export const repoRoot = path.resolve(serverRoot, '../..');
