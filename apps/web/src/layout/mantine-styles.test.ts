// @vitest-environment jsdom
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Mantine's class names are fixed (`m_` + 8 hex digits): a component's module lists the classes it
// renders, its `.layer.css` file defines them. From the components src/ imports, this finds the
// stylesheets they need and checks that app.tsx (pages outside the layout) and mantine-styles.ts
// (pages inside it) import them.
const src = path.resolve(import.meta.dirname, '..');
const core = path.resolve(src, '../../../node_modules/@mantine/core');
const CLASS = /m_[0-9a-f]{8}/g;

/** `Select` → the module the package index exports it from. */
const exportedFrom = new Map<string, string>();
for (const [, names = '', file = ''] of readFileSync(path.join(core, 'esm/index.mjs'), 'utf8').matchAll(
  /import \{([^}]+)\} from "\.\/([^"]+)"/g,
)) {
  for (const name of names.split(','))
    exportedFrom.set(name.trim().split(' as ').pop() ?? '', path.join(core, 'esm', file));
}

/** Every Mantine class a module (with what it imports inside @mantine/core) can render. */
function classesOf(file: string, seen = new Set<string>(), found = new Set<string>()): Set<string> {
  if (seen.has(file)) return found;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const name of code.match(CLASS) ?? []) found.add(name);
  for (const [, relative = ''] of code.matchAll(/from "(\.[^"]+)"/g))
    classesOf(path.resolve(path.dirname(file), relative), seen, found);
  return found;
}

const stylesheets = new Map(
  readdirSync(path.join(core, 'styles'))
    .filter((file) => file.endsWith('.layer.css'))
    .map((file) => [file, new Set(readFileSync(path.join(core, 'styles', file), 'utf8').match(CLASS))]),
);
/** Mantine's own order of its stylesheets (the order of its all-in-one file). */
const allInOne = readFileSync(path.join(core, 'styles.layer.css'), 'utf8');
const rank = (file: string) => {
  const first = readFileSync(path.join(core, 'styles', file), 'utf8').match(/\.m_[0-9a-f]{8}/)?.[0];
  return first ? allInOne.indexOf(first) : -1;
};

function importedStylesheets(file: string): string[] {
  return [
    ...readFileSync(path.join(src, file), 'utf8').matchAll(
      /^import '@mantine\/core\/styles\/([\w-]+\.layer\.css)';$/gm,
    ),
  ].map(([, name = '']) => name);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

/** Components imported from @mantine/core, with the files importing them. */
const components = new Map<string, string[]>();
for (const file of sourceFiles(src)) {
  for (const [, names = ''] of readFileSync(file, 'utf8').matchAll(
    /import\s*\{([^}]+)\}\s*from\s*'@mantine\/core'/g,
  )) {
    for (const name of names.split(',').map((part) => part.trim())) {
      if (!name || name.startsWith('type ') || !exportedFrom.has(name)) continue;
      components.set(name, [...(components.get(name) ?? []), path.relative(src, file)]);
    }
  }
}

/** Classes the components render that none of `sheets` defines, with the stylesheets that would. */
function missing(names: string[], sheets: string[]): string[] {
  const defined = new Set(sheets.flatMap((sheet) => [...(stylesheets.get(sheet) ?? [])]));
  const gaps = new Set<string>();
  for (const name of names) {
    for (const cls of classesOf(exportedFrom.get(name) ?? '')) {
      if (defined.has(cls)) continue;
      const owners = [...stylesheets].filter(([, classes]) => classes.has(cls)).map(([sheet]) => sheet);
      if (owners.length > 0) gaps.add(`${name}: ${owners.join(' or ')}`);
    }
  }
  return [...gaps].sort();
}

const appSheets = importedStylesheets('app/app.tsx');
const layoutSheets = importedStylesheets('layout/mantine-styles.ts');

describe('Mantine stylesheets', () => {
  it('finds the components and stylesheets it checks', () => {
    expect(components.get('Button')?.length).toBeGreaterThan(0);
    expect(appSheets).toContain('baseline.layer.css');
    expect(layoutSheets.length).toBeGreaterThan(10);
  });

  it('app.tsx styles every component of the pages outside the layout (login, password change)', () => {
    // Those pages are features/auth/ and the app shell, with the shared components they import.
    const shellFiles = sourceFiles(src)
      .map((file) => path.relative(src, file))
      .filter((file) => file.startsWith('features/auth/') || file.startsWith('app/'));
    const shellCode = shellFiles.map((file) => readFileSync(path.join(src, file), 'utf8')).join('\n');
    const isOutside = (file: string) =>
      shellFiles.includes(file) ||
      (file.startsWith('components/') && shellCode.includes(`@/${file.replace(/\.tsx?$/, '')}`));
    const outside = [...components].filter(([, files]) => files.some(isOutside)).map(([name]) => name);
    expect(missing(outside, appSheets)).toEqual([]);
  });

  it('app.tsx and mantine-styles.ts together style every component src/ uses', () => {
    expect(missing([...components.keys()], [...appSheets, ...layoutSheets])).toEqual([]);
  });

  it('imports each stylesheet once, in Mantine’s order within each file', () => {
    expect(layoutSheets.filter((sheet) => appSheets.includes(sheet))).toEqual([]);
    for (const sheets of [appSheets, layoutSheets]) {
      const components = sheets.filter((sheet) => rank(sheet) > allInOne.indexOf('.m_')); // not baseline, variables, global
      expect(components).toEqual([...components].sort((a, b) => rank(a) - rank(b)));
    }
  });

  it('loads no stylesheet after one of a component that builds on it (the later one would win ties)', () => {
    // mantine-styles.ts loads after app.tsx: a component styled by app.tsx must not render classes
    // of a stylesheet that comes before its own in Mantine's order but is only in mantine-styles.ts.
    const clashes = appSheets.flatMap((sheet) => {
      const module = exportedFrom.get(sheet.replace('.layer.css', ''));
      if (!module) return [];
      const rendered = classesOf(module);
      return layoutSheets
        .filter((earlier) => rank(earlier) < rank(sheet))
        .filter((earlier) => [...(stylesheets.get(earlier) ?? [])].some((cls) => rendered.has(cls)))
        .map((earlier) => `${sheet} builds on ${earlier}: move ${earlier} to app.tsx`);
    });
    expect(clashes).toEqual([]);
  });
});
