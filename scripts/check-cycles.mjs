// No import cycle, type-only imports included (ESLint's import-x/no-cycle skips `import type`):
// between files of each workspace, and between the server's modules (modules/<m>/ folders, seen
// through any of their files). Run by `npm run lint`; prints each cycle and exits 1 when there is one.
import { parseCircular, parseDependencyTree } from 'dpdm';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const workspaces = [
  { tsconfig: 'apps/server/tsconfig.json', files: 'apps/server/src/**/*.ts' },
  { tsconfig: 'apps/web/tsconfig.json', files: 'apps/web/src/**/*.{ts,tsx}' },
  { tsconfig: 'packages/contracts/tsconfig.json', files: 'packages/contracts/src/**/*.ts' },
  { tsconfig: 'e2e/tsconfig.json', files: 'e2e/**/*.ts' },
  { tsconfig: 'bench/tsconfig.json', files: 'bench/**/*.ts' },
];
const serverModule = /^apps\/server\/src\/modules\/([^/]+)\//;

const fileCycles = new Set();
const moduleEdges = new Map();
for (const { tsconfig, files } of workspaces) {
  const tree = await parseDependencyTree(files, {
    context: root,
    cwd: root,
    tsconfig: path.join(root, tsconfig),
    transform: false,
    exclude: /node_modules|\/dist\//,
  });
  for (const cycle of parseCircular(tree)) {
    // The same ring, found from another file or another workspace, is said once.
    const first = cycle.indexOf([...cycle].sort()[0]);
    const ring = [...cycle.slice(first), ...cycle.slice(0, first)];
    fileCycles.add(`files: ${[...ring, ring[0]].join(' -> ')}`);
  }
  for (const [issuer, dependencies] of Object.entries(tree)) {
    const from = serverModule.exec(issuer)?.[1];
    // Tests may build their worlds from any module; the modules' own code must form no cycle.
    if (!from || /\.test\.tsx?$/.test(issuer)) continue;
    for (const { id } of dependencies ?? []) {
      const to = id && serverModule.exec(id)?.[1];
      if (!to || to === from) continue;
      if (!moduleEdges.has(from)) moduleEdges.set(from, new Map());
      if (!moduleEdges.get(from).has(to)) moduleEdges.get(from).set(to, `${issuer} -> ${id}`);
    }
  }
}

const problems = [...fileCycles];

// A module that reaches itself again through other modules: a depth-first walk keeps its path.
const reported = new Set();
const walk = (start, at, trail) => {
  for (const [next, edge] of moduleEdges.get(at) ?? []) {
    if (next === start) {
      const ring = [...trail, next];
      const key = [...ring.slice(0, -1)].sort().join(',');
      if (!reported.has(key)) {
        reported.add(key);
        problems.push(`modules: ${ring.join(' -> ')} (last: ${edge})`);
      }
    } else if (!trail.includes(next)) walk(start, next, [...trail, next]);
  }
};
for (const name of moduleEdges.keys()) walk(name, name, [name]);

if (problems.length > 0) {
  console.error(`Import cycles (${problems.length}):\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('import cycles: none, type-only imports included');
