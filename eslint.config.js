import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Server modules: each owns its tables and its *.queries.ts; the others go through its services.
const serverModules = readdirSync('apps/server/src/modules', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const moduleDir = (name) => `apps/server/src/modules/${name}`;
const serverZones = [
  ...serverModules.map((name) => ({
    target: `${moduleDir(name)}/**`,
    from: serverModules.filter((other) => other !== name).map((other) => `${moduleDir(other)}/*.queries.ts`),
    message: "another module's tables are its own: call its service, not its queries",
  })),
  {
    target: [
      'apps/server/src/plugins/**',
      'apps/server/src/*.ts',
      'apps/server/src/db/**',
      'apps/server/src/demo/**',
    ],
    from: 'apps/server/src/modules/*/*.queries.ts',
    message: "a module's queries are for its own services",
  },
  {
    target: 'apps/server/src/db/**',
    from: ['apps/server/src/modules/**', 'apps/server/src/plugins/**'],
    except: [],
    message: 'the database layer knows no module or plugin',
  },
  {
    target: 'packages/contracts/**',
    from: ['apps/**', 'bench/**', 'e2e/**'],
    message: 'the contracts depend on nothing of the apps',
  },
];

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
      'import-x/no-restricted-paths': ['error', { zones: serverZones }],
    },
  },
  {
    // The browser app: browser globals only (vite.config.ts runs in Node).
    files: [`${web}/**/*.{ts,tsx}`],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': ['error', { zones: [...webZones, testSupportZone] }],
    },
  },
  {
    files: [`${web}/**/*.test.{ts,tsx}`, `${web}/test-support/**`],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: webZones }] },
  },
);
