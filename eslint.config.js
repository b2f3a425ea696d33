import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';
import globals from 'globals';

// Server modules: each owns its tables and its *.queries.ts, and shows the others one face, its
// index.ts. Tests (which build worlds from any part) and bench/ may reach further.
const server = 'apps/server/src';
const serverModules = readdirSync(`${server}/modules`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const moduleDir = (name) => `${server}/modules/${name}`;
/** Another module's files but its face (index.ts). */
const behindFace = (name) => ({ from: moduleDir(name), except: ['./index.ts'] });
const rowMessage =
  "a module's face exports domain types (camelCase), not rows: map the row inside the module";
const faceMessage = 'import another module through its face, its index.ts: the rest of it is its own';
/** Every module but these, as whole folders. */
const modulesBut = (...allowed) => serverModules.filter((name) => !allowed.includes(name)).map(moduleDir);
const serverWiring = [
  `${server}/*.ts`,
  `${server}/modules/*.ts`,
  `${server}/plugins/**`,
  `${server}/db/**`,
  `${server}/demo/**`,
  'scripts/**',
];
const serverZones = [
  ...serverModules.flatMap((name) =>
    serverModules
      .filter((other) => other !== name)
      .map((other) => ({ target: `${moduleDir(name)}/**`, ...behindFace(other), message: faceMessage })),
  ),
  ...serverModules.map((name) => ({ target: serverWiring, ...behindFace(name), message: faceMessage })),
  {
    target: [`${server}/modules/*/index.ts`, `${server}/modules/*/*.routes.ts`, `${server}/modules/*.ts`],
    from: `${server}/modules/*/*.queries.ts`,
    message: "a module's queries are for its own services: its routes and its face never show them",
  },
  {
    target: moduleDir('access'),
    from: modulesBut('access'),
    message: 'access is the floor under every module: it imports none',
  },
  {
    target: moduleDir('audit'),
    from: modulesBut('audit', 'access'),
    message:
      'every module writes to the audit log, so audit imports no module but access (app.ts hands it the name lookups)',
  },
  {
    target: moduleDir('access-log'),
    from: modulesBut('access-log', 'access'),
    message:
      'the modules that read meter data log it, so access-log imports no module but access (app.ts hands it the meter lookup)',
  },
  {
    target: `${server}/plugins`,
    from: modulesBut('access'),
    message: 'plugins sit under the modules: they import access alone (app.ts hands them the services)',
  },
  {
    target: `${server}/db`,
    from: [`${server}/modules`, `${server}/plugins`],
    message: 'the database layer knows no module or plugin',
  },
  {
    target: 'packages/contracts/**',
    from: ['apps/**', 'bench/**', 'e2e/**'],
    message: 'the contracts depend on nothing of the apps',
  },
  {
    target: 'apps/server',
    from: ['apps/web', 'e2e', 'bench'],
    message: 'the server imports nothing of the web app, e2e or bench: they meet over HTTP',
  },
  {
    target: 'apps/web',
    from: ['apps/server', 'e2e', 'bench'],
    message: 'the web app imports nothing of the server, e2e or bench: they meet over HTTP and the contracts',
  },
  {
    target: 'e2e',
    from: 'apps',
    except: ['./server/src/test/smtp-sink.ts'],
    message: 'e2e drives the apps from outside (over HTTP and the browser): it imports none of their code',
  },
];
/** The zones for tests: the same, but a test may reach behind another module's face. */
const serverTestZones = serverZones.filter((zone) => zone.message !== faceMessage);

const web = 'apps/web/src';
const features = readdirSync(`${web}/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/*
 * The web app's one-way imports (ARCHITECTURE.md), in bulletproof-react's shape:
 * shared (lib/, components/) → features/ → app/ and layout/ (the shell that composes them).
 * Paths are resolved first, so `@/features/…`, relative paths and `import()` are all caught.
 */
const webZones = [
  {
    target: [`${web}/lib`, `${web}/components`],
    from: [`${web}/features`, `${web}/layout`, `${web}/app`],
    message: 'Shared code (lib/, components/) imports no feature, layout or app module.',
  },
  {
    target: `${web}/features`,
    from: [`${web}/app`, `${web}/layout`],
    message: 'A feature imports no app or layout module: the shell composes features, not the other way.',
  },
  ...features.map((feature) => ({
    target: `${web}/features/${feature}`,
    from: `${web}/features`,
    except: [`./${feature}`],
    message: 'Features never import each other: put what both need in lib/ or components/.',
  })),
];

/** Test data and test environments: for tests only. */
const testSupportZone = {
  target: web,
  from: `${web}/test-support`,
  message: 'test-support/ is for tests only.',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/migrations/**', 'scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Import rules for every TypeScript file of the repo: no cycles anywhere, and the zones.
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Imports first, each module once; packages (Node's, npm's, @cm/contracts) before the app's own
      // files (@/… and relative paths), in any order within each group.
      'import-x/first': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/order': [
        'error',
        {
          groups: [
            ['builtin', 'external'],
            ['internal', 'parent', 'sibling', 'index'],
          ],
          pathGroups: [
            { pattern: '@cm/**', group: 'external' },
            { pattern: '@/**', group: 'internal' },
          ],
          'newlines-between': 'ignore',
        },
      ],
      'import-x/no-restricted-paths': ['error', { zones: serverZones }],
    },
  },
  {
    // A module's face hands out domain types (camelCase), never its rows: no type named `…Row`, and
    // no `export *` that would let one through unnamed.
    files: [`${server}/modules/*/index.ts`],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'ExportSpecifier[exported.name=/Row$/]',
          'ExportNamedDeclaration > TSTypeAliasDeclaration[id.name=/Row$/]',
          'ExportNamedDeclaration > TSInterfaceDeclaration[id.name=/Row$/]',
        ].map((selector) => ({ selector, message: rowMessage })),
        { selector: 'ExportAllDeclaration', message: 'a face names what it exports: no `export *`' },
      ],
    },
  },
  {
    files: ['apps/server/**/*.test.ts', `${server}/test/**`],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: serverTestZones }] },
  },
  {
    // The browser app: browser globals only (vite.config.ts runs in Node).
    files: [`${web}/**/*.{ts,tsx}`],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': ['error', { zones: [...serverZones, ...webZones, testSupportZone] }],
    },
  },
  {
    // Accessibility of the JSX (the browser suite runs axe on the rendered pages as well).
    files: [`${web}/**/*.tsx`],
    ...jsxA11y.configs.recommended,
    rules: {
      ...jsxA11y.configs.recommended.rules,
      // A table that scrolls sideways is a named region that takes the focus, so keys scroll it (axe's
      // scrollable-region-focusable).
      'jsx-a11y-x/no-noninteractive-tabindex': ['error', { tags: [], roles: ['region', 'tabpanel'] }],
      // Mantine moves the focus into the dialogs and popovers it opens; raw DOM autofocus stays refused.
      'jsx-a11y-x/no-autofocus': ['error', { ignoreNonDOM: true }],
    },
  },
  {
    files: [`${web}/**/*.test.{ts,tsx}`, `${web}/test-support/**`],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...serverZones, ...webZones] }] },
  },
);
