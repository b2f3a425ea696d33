import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { ROUTE_PRELOADS_FILE } from './web-index.ts';

let dist: string;
let t: TestApp;

const BOOT = "document.documentElement.setAttribute('data-skin', 'dark');";
const script = (name: string) => `console.log('${name}');`.repeat(50);

/** A build as apps/web writes it: hashed assets with their .br and .gz forms, index.html, preload lists. */
async function writeBuild(name: string, when: Date, preloads: string | undefined = undefined) {
  await mkdir(path.join(dist, 'assets'), { recursive: true });
  const asset = path.join(dist, 'assets', `${name}.js`);
  await writeFile(asset, script(name));
  await writeFile(`${asset}.br`, brotliCompressSync(script(name)));
  await writeFile(`${asset}.gz`, gzipSync(script(name)));
  if (preloads === undefined) await rm(path.join(dist, ROUTE_PRELOADS_FILE), { force: true });
  else await writeFile(path.join(dist, ROUTE_PRELOADS_FILE), preloads);
  const index = path.join(dist, 'index.html');
  await writeFile(
    index,
    `<html><head><meta name="cm-api-key" content="__CM_API_KEY__"><script>${BOOT}</script><script src="/assets/${name}.js"></script></head><body></body></html>`,
  );
  await utimes(index, when, when);
}

const decoded = (body: Buffer, encoding: unknown) =>
  (encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body).toString();

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

  /** GET `url` accepting `accept`: answered in `encoding`, varying on Accept-Encoding; the body decoded. */
  async function getEncoded(url: string, accept: string | undefined, encoding: string | undefined) {
    const response = await t.app.inject({
      method: 'GET',
      url,
      headers: accept === undefined ? {} : { 'accept-encoding': accept },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    return { response, body: decoded(response.rawPayload, encoding) };
  }

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
  ])(
    'sends the build’s compressed asset for Accept-Encoding "%s" (%s), same content',
    async (accept, encoding) => {
      const { response, body } = await getEncoded('/assets/app-one.js', accept, encoding);
      expect(response.headers['content-type']).toContain('javascript');
      expect(response.headers['cache-control']).toContain('immutable');
      expect(response.rawPayload.length).toBeLessThan(script('app-one').length);
      expect(body).toBe(script('app-one'));
    },
  );

  it.each([undefined, 'identity', 'deflate'])(
    'sends the plain asset for Accept-Encoding %s',
    async (accept) => {
      expect((await getEncoded('/assets/app-one.js', accept, undefined)).body).toBe(script('app-one'));
    },
  );

  it.each(['br', 'gzip'])('compresses index.html with %s, key filled in', async (encoding) => {
    const plain = await getEncoded('/login', undefined, undefined);
    expect(plain.body).toContain(`content="${t.apiKey}"`);
    const { response, body } = await getEncoded('/login', encoding, encoding);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(body).toBe(plain.body);
  });

  it('adds the build’s preloads for the requested path, always-needed ones on every page', async () => {
    await writeBuild(
      'app-three',
      new Date('2026-01-15T00:00:00Z'),
      JSON.stringify({
        always: ['assets/app-three.js', 'assets/app.css'],
        routes: { '/login': ['assets/login.js'], '/admin': ['assets/layout.js', 'assets/admin.js'] },
      }),
    );
    const login = await t.app.inject({ method: 'GET', url: '/login?lng=pt' });
    expect(login.body).toContain(
      '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/app-three.js"><link rel="preload" as="style" crossorigin fetchpriority="low" href="/assets/app.css"><link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/login.js"></head>',
    );
    const admin = await t.app.inject({ method: 'GET', url: '/admin/users' });
    expect(admin.body).toContain('href="/assets/admin.js"');
    expect(admin.body).toContain('href="/assets/layout.js"');
    expect(admin.body).not.toContain('login.js');
    const other = await t.app.inject({ method: 'GET', url: '/administrator' });
    expect(other.body).toContain('href="/assets/app-three.js"');
    expect(other.body).not.toContain('admin.js');
    const br = await t.app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'br' } });
    expect(decoded(br.rawPayload, 'br')).toBe(login.body);
  });

  it('serves the page without preloads when the preload file is malformed', async () => {
    await writeBuild('app-four', new Date('2026-01-20T00:00:00Z'), '{"always": ["<script>"]');
    const page = await t.app.inject({ method: 'GET', url: '/login' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/assets/app-four.js');
    expect(page.body).not.toContain('<link');
  });

  it('allows index.html’s inline script by its hash, and no other inline script', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/check' });
    const hash = `'sha256-${createHash('sha256').update(BOOT).digest('base64')}'`;
    const scriptSrc = String(page.headers['content-security-policy'])
      .split(';')
      .find((directive) => directive.startsWith('script-src'));
    expect(scriptSrc).toBe(`script-src 'self' ${hash}`);
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-one.js' });
    expect(String(asset.headers['content-security-policy'])).not.toContain('sha256');
  });

  it('serves a new build without a restart', async () => {
    await writeBuild('app-two', new Date('2026-02-01T00:00:00Z'));
    const page = await t.app.inject({ method: 'GET', url: '/login' });
    expect(page.body).toContain('/assets/app-two.js');
    const compressed = await t.app.inject({
      method: 'GET',
      url: '/login',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(decoded(compressed.rawPayload, 'gzip')).toContain('/assets/app-two.js');
    expect((await t.app.inject({ method: 'GET', url: '/assets/app-two.js' })).statusCode).toBe(200);
  });
});
