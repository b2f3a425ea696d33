import type { FastifyInstance } from 'fastify';

/**
 * Every route the app registered, as `METHOD /path`, read from Fastify's own route tree
 * (`printRoutes`), so that no hand-kept list can forget one. Each tree line is a path segment
 * appended to its parent's, with the methods it answers in parentheses.
 */
export function registeredRoutes(app: FastifyInstance): string[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: Array<{ depth: number; path: string }> = [];
  const routes = new Set<string>();
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    while (stack.length > depth) stack.pop();
    const path = `${stack.at(-1)?.path ?? ''}${match[2] ?? ''}`;
    stack.push({ depth, path });
    for (const method of (match[3] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean)) {
      routes.add(`${method} ${path}`);
    }
  }
  if (routes.size === 0) throw new Error(`could not read any route from printRoutes:\n${tree}`);
  return [...routes].sort();
}
