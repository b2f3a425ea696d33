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

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/migrations/**', 'scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'] }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: serverZones }],
    },
  },
  {
    files: ['apps/web/**/*.tsx', 'apps/web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Features never import each other: pages in app/ compose them (STYLE.md).
    files: ['apps/web/src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../../features/*', '../*/**'], message: 'features do not import each other' },
          ],
        },
      ],
    },
  },
);
