import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The import boundaries ARCHITECTURE.md says lint holds, tried with planted imports: each plant is
// linted as if it were a file at that place in the repository (the file itself need not exist; the
// file it imports does), and must be refused, while its lawful twin passes.

const root = path.resolve(import.meta.dirname, '..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The messages of the restricted-paths rule for `code` placed at `file`. */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
    .map((message) => message.message);
}

const server = 'apps/server/src';

describe('lint refuses imports across the boundaries', () => {
  it("refuses another module's file but its face, and takes the face", async () => {
    const planted = `import { Completeness } from '../readings/completeness.ts';\nexport const c = Completeness;\n`;
    const lawful = `import { Completeness } from '../readings/index.ts';\nexport const c = Completeness;\n`;
    expect(await boundaryErrors(`${server}/modules/check/planted.ts`, planted)).toEqual([
      expect.stringContaining('through its face'),
    ]);
    expect(await boundaryErrors(`${server}/modules/check/planted.ts`, lawful)).toEqual([]);
  });

  it("refuses the app's wiring a module's file but its face", async () => {
    const planted = `import { AuthService } from './modules/auth/auth.service.ts';\nexport const a = AuthService;\n`;
    expect(await boundaryErrors(`${server}/planted.ts`, planted)).toEqual([
      expect.stringContaining('through its face'),
    ]);
  });

  it('refuses a routes file its own queries, and a face the queries', async () => {
    const code = `import { listAudit } from './audit.queries.ts';\nexport const l = listAudit;\n`;
    expect(await boundaryErrors(`${server}/modules/audit/planted.routes.ts`, code)).toEqual([
      expect.stringContaining('queries'),
    ]);
    expect(await boundaryErrors(`${server}/modules/audit/index.ts`, code)).toEqual([
      expect.stringContaining('queries'),
    ]);
  });

  it('keeps the floors: access imports no module, audit and the plugins only access', async () => {
    const directory = `import { findVisibleMeter } from '../directory/index.ts';\nexport const m = findVisibleMeter;\n`;
    expect(await boundaryErrors(`${server}/modules/access/planted.ts`, directory)).not.toEqual([]);
    expect(await boundaryErrors(`${server}/modules/audit/planted.ts`, directory)).toEqual([
      expect.stringContaining('audit imports no module but access'),
    ]);
    const auth = `import { AuthService } from '../modules/auth/index.ts';\nexport const a = AuthService;\n`;
    expect(await boundaryErrors(`${server}/plugins/planted.ts`, auth)).toEqual([
      expect.stringContaining('plugins sit under the modules'),
    ]);
    const access = `import { scopeOf } from '../modules/access/index.ts';\nexport const s = scopeOf;\n`;
    expect(await boundaryErrors(`${server}/plugins/planted.ts`, access)).toEqual([]);
  });

  it('refuses the web app the server and the server the web app', async () => {
    const toServer = `import { loadConfig } from '../../../server/src/config.ts';\nexport const l = loadConfig;\n`;
    expect(await boundaryErrors('apps/web/src/lib/planted.ts', toServer)).toEqual([
      expect.stringContaining('the web app imports nothing of the server'),
    ]);
    const toWeb = `import { formatEnergy } from '../../web/src/lib/format.ts';\nexport const f = formatEnergy;\n`;
    expect(await boundaryErrors(`${server}/planted.ts`, toWeb)).toEqual([
      expect.stringContaining('the server imports nothing of the web app'),
    ]);
  });

  it('refuses e2e the apps, but for the test SMTP sink', async () => {
    const planted = `import { HttpError } from '../../apps/server/src/http-error.ts';\nexport const h = HttpError;\n`;
    expect(await boundaryErrors('e2e/support/planted.ts', planted)).toEqual([
      expect.stringContaining('e2e drives the apps from outside'),
    ]);
    const sink = `import { startSmtpSink } from '../../apps/server/src/test/smtp-sink.ts';\nexport const s = startSmtpSink;\n`;
    expect(await boundaryErrors('e2e/support/planted.ts', sink)).toEqual([]);
  });
});

/** The messages of the rule that keeps rows out of a module's face, for `code` placed at `file`. */
async function faceErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-syntax')
    .map((message) => message.message);
}

describe("lint keeps rows out of a module's face", () => {
  const face = `${server}/modules/directory/index.ts`;

  it('refuses a face a type named …Row, however it is exported, and takes a domain type', async () => {
    const reexported = `export type { LocationMeter as MeterRow } from './views.ts';\n`;
    const declared = `export type LocationRow = { public_name: string };\n`;
    const declaredInterface = `export interface DeviceRow { last_seen_at: Date | null }\n`;
    for (const code of [reexported, declared, declaredInterface])
      expect(await faceErrors(face, code)).toEqual([expect.stringContaining('not rows')]);
    expect(await faceErrors(face, `export type { LocationMeter } from './views.ts';\n`)).toEqual([]);
  });

  it('refuses a face `export *`, which would let a row through unnamed', async () => {
    expect(await faceErrors(face, `export * from './views.ts';\n`)).toEqual([
      expect.stringContaining('export *'),
    ]);
  });

  it('leaves rows alone inside the module', async () => {
    const inside = `export type LocationRow = { public_name: string };\n`;
    expect(await faceErrors(`${server}/modules/directory/planted.queries.ts`, inside)).toEqual([]);
  });
});
