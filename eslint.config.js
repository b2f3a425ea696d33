import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

const web = 'apps/web/src';
const features = readdirSync(new URL(`${web}/features`, import.meta.url), { withFileTypes: true })
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
  importX.flatConfigs.typescript,
  {
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [
            'apps/web/tsconfig.json',
            'apps/server/tsconfig.json',
            'packages/contracts/tsconfig.json',
          ],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // TypeScript checks names and defaults; these would only repeat it, slower.
      'import-x/named': 'off',
      'import-x/namespace': 'off',
      'import-x/default': 'off',
      'import-x/no-named-as-default-member': 'off',
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
