import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

const run = promisify(execFile);
const redocly = path.resolve(import.meta.dirname, '../../../../node_modules/.bin/redocly');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('OpenAPI document', () => {
  it('is served without an API key and documents the spec calls with their exact paths', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    for (const route of [
      '/api/CheckMeter/GetMeterInfo',
      '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName',
      '/api/bookmarks/data',
      '/api/bookmarks/update',
      '/api/search',
      '/api/auth/login',
    ]) {
      expect(Object.keys(document.paths)).toContain(route);
    }
    const parameters = document.paths[
      '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName'
    ].get.parameters.map((p: { name: string }) => p.name);
    expect(parameters).toEqual(
      expect.arrayContaining(['name', 'From', 'To', 'meterInd', 'granularity', 'maxPoints']),
    );
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(page.statusCode);
  });

  it('passes an independent OpenAPI linter (Redocly) without errors', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cm-openapi-'));
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    await writeFile(
      path.join(dir, 'redocly.yaml'),
      // Security on every operation is by the global apiKey requirement; an operationId is not required by the spec.
      'extends:\n  - recommended\nrules:\n  operation-operationId: off\n  info-license-url: off\n',
    );
    const result = await run(
      redocly,
      ['lint', file, '--config', path.join(dir, 'redocly.yaml'), '--format', 'json'],
      { cwd: dir },
    ).catch((error: { stdout: string; stderr: string }) => error);
    const report = JSON.parse(result.stdout);
    const errors = report.problems.filter((problem: { severity: string }) => problem.severity === 'error');
    expect(
      errors.map((problem: { ruleId: string; message: string }) => `${problem.ruleId}: ${problem.message}`),
    ).toEqual([]);
  }, 60_000);
});
