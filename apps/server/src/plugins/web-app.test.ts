import { mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

let dist: string;
let t: TestApp;

async function writeBuild(name: string, when: Date) {
  await mkdir(path.join(dist, 'assets'), { recursive: true });
  await writeFile(path.join(dist, 'assets', `${name}.js`), `console.log('${name}')`);
  const index = path.join(dist, 'index.html');
  await writeFile(
    index,
    `<meta name="cm-api-key" content="__CM_API_KEY__"><script src="/assets/${name}.js"></script>`,
  );
  await utimes(index, when, when);
}

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'cm-dist-'));
  await writeBuild('app-one', new Date('2026-01-01T00:00:00Z'));
  t = await createTestApp({ CM_WEB_DIST: dist });
});
afterAll(async () => {
  await t.close();
  await rm(dist, { recursive: true, force: true });
});

describe('web app serving', () => {
  it('answers client routes with index.html carrying the API key, never the raw template', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/check?meter=EM-1' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain(`content="${t.apiKey}"`);
    expect(page.body).not.toContain('__CM_API_KEY__');
    const root = await t.app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain(`content="${t.apiKey}"`);
    const raw = await t.app.inject({ method: 'GET', url: '/index.html' });
    expect(raw.body).not.toContain('__CM_API_KEY__');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-one.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const api = await t.app.inject({
      method: 'GET',
      url: '/api/nowhere',
      headers: { 'x-api-key': t.apiKey },
    });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ statusCode: 404 });
  });

  it('serves a new build without a restart', async () => {
    await writeBuild('app-two', new Date('2026-02-01T00:00:00Z'));
    const page = await t.app.inject({ method: 'GET', url: '/login' });
    expect(page.body).toContain('/assets/app-two.js');
    expect((await t.app.inject({ method: 'GET', url: '/assets/app-two.js' })).statusCode).toBe(200);
  });
});
