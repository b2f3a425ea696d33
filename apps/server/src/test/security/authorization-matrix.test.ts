import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './raw-http.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { matrix, matrixRows, type MatrixRow, type Target } from './authorization-matrix.ts';
import { registeredRoutes } from './registered-routes.ts';
import { buildWorld, callers, type Caller, type World } from './world.ts';

// Walks authorization-matrix.ts against the real app: every registered route must have a row, and
// every cell must answer its status. Cells that change data run after every refusal was checked,
// and each signed-in cell gets its own session, so a logout or a disabled user cannot spill over.

let t: TestApp;
let w: World;
let registered: Set<string>;
const answers = new Map<string, { status: number; body: string }>();

beforeAll(async () => {
  // The webhook added below points at loopback (port 9, nothing listens): allowed here.
  t = await createTestApp({ CM_OUTBOUND_ALLOW_CIDRS: '127.0.0.1' });
  w = await buildWorld(t);
  registered = new Set(registeredRoutes(t.app));
});
afterAll(() => t.close());

const rows = matrix.flatMap((group) => group.rows.map((row) => ({ group: group.title, row })));
const methodOf = (row: MatrixRow) => row.route.split(' ')[0] ?? '';
const pathOf = (row: MatrixRow) => row.route.slice(methodOf(row).length + 1);
const targetsOf = (row: MatrixRow) => Object.keys(row.expect) as Target[];

async function runCell(row: MatrixRow, method: string, caller: Caller, target: Target) {
  const objects = target === 'none' ? w.own : w[target];
  const { url, body, contentType } = row.request(objects, w);
  const response: LightMyRequestResponse = await t.app.inject({
    method: method as 'GET',
    url,
    headers: { ...(await w.headersFor(caller)), ...(contentType ? { 'content-type': contentType } : {}) },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : (body as object) }),
  });
  answers.set(`${method} ${pathOf(row)}|${caller}|${target}`, {
    status: response.statusCode,
    body: response.body,
  });
  return response;
}

/** Runs the cells of `row` for the given callers; answers one line per cell whose status differs. */
async function check(row: MatrixRow, which: (caller: Caller) => boolean): Promise<string[]> {
  const wrong: string[] = [];
  const methods = [
    methodOf(row),
    ...(methodOf(row) === 'GET' && registered.has(`HEAD ${pathOf(row)}`) ? ['HEAD'] : []),
  ];
  for (const method of methods) {
    for (const target of targetsOf(row)) {
      const statuses = row.expect[target];
      if (!statuses) continue;
      for (const [column, caller] of callers.entries()) {
        if (!which(caller)) continue;
        const response = await runCell(row, method, caller, target);
        if (response.statusCode !== statuses[column]) {
          wrong.push(
            `${method} ${pathOf(row)} ${caller}/${target}: expected ${statuses[column]}, got ${response.statusCode} ${response.body.slice(0, 160)}`,
          );
        }
      }
    }
  }
  return wrong;
}

describe('authorization matrix', () => {
  it('has a row for every route the app registers, and no row for a route it does not', () => {
    const known = matrixRows();
    const missing = [...registered].filter(
      (route) => !known.has(route) && !(route.startsWith('HEAD ') && known.has(`GET ${route.slice(5)}`)),
    );
    const stale = [...known.keys()].filter((route) => !registered.has(route));
    expect(missing, 'routes without a row in authorization-matrix.ts').toEqual([]);
    expect(stale, 'rows for routes the app does not have').toEqual([]);
  });

  describe('refusals and reads by everyone but the administrator', () => {
    it.each(rows.map(({ group, row }) => [row.route, group, row] as const))(
      '%s',
      async (_route, _group, row) => {
        expect(await check(row, (caller) => caller !== 'admin')).toEqual([]);
      },
    );
  });

  describe('the administrator: reads first, then changes', () => {
    const reads = rows.filter(({ row }) => methodOf(row) === 'GET');
    const changes = rows.filter(({ row }) => methodOf(row) !== 'GET');
    it.each([...reads, ...changes].map(({ row }) => [row.route, row] as const))('%s', async (_route, row) => {
      expect(await check(row, (caller) => caller === 'admin')).toEqual([]);
    });
  });

  describe('the key check on the routed path, however the path is spelled', () => {
    // The router decodes %61 and the key check once looked at the raw URL: /%61pi/... ran the route
    // with no key at all. Through any spelling, a route answers what its canonical path answers,
    // or the spelling finds no route (404, or 401 to a caller without a valid key): never more than
    // the canonical path allows.
    const spellings: Array<[string, (path: string) => string]> = [
      ['%61pi', (path) => path.replace(/^\/api\//, '/%61pi/')],
      ['%2F', (path) => path.replace(/^\/api\//, '/api%2F')],
      ['//api', (path) => `/${path}`],
      ['/api/./', (path) => path.replace(/^\/api\//, '/api/./')],
      ['/api/../api/', (path) => path.replace(/^\/api\//, '/api/../api/')],
      ['trailing slash', (path) => path.replace(/(\?|$)/, '/$1')],
      ['upper case', (path) => path.replace(/^\/api\//, '/API/')],
    ];
    const keyCallers = ['noApiKey', 'revokedKey', 'ingestKey'] as const;
    let port = 0;
    beforeAll(async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.app.server.address() as { port: number }).port;
    });
    // The key check is the API's: the OAuth server and the ESPI API (their own tokens) take no key.
    const keyed = rows.filter(({ row }) => pathOf(row).startsWith('/api'));
    it.each(keyed.map(({ row }) => [row.route, row] as const))('%s', async (_route, row) => {
      const wrong: string[] = [];
      for (const target of targetsOf(row)) {
        const statuses = row.expect[target];
        if (!statuses) continue;
        for (const caller of keyCallers) {
          const canonical = statuses[callers.indexOf(caller)];
          const objects = target === 'none' ? w.own : w[target];
          const { url, body, contentType } = row.request(objects, w);
          for (const [name, spell] of spellings) {
            // Over a real socket: inject would resolve `.` and `..` before the server saw them.
            const payload = body === undefined || typeof body === 'string' ? body : JSON.stringify(body);
            const response = await rawRequest(port, {
              method: methodOf(row),
              path: spell(url),
              headers: {
                ...(await w.headersFor(caller)),
                ...(contentType
                  ? { 'content-type': contentType }
                  : payload
                    ? { 'content-type': 'application/json' }
                    : {}),
              },
              ...(payload === undefined ? {} : { body: payload }),
            });
            const unrouted = caller === 'ingestKey' ? [404] : [404, 401];
            if (response.statusCode !== canonical && !unrouted.includes(response.statusCode))
              wrong.push(
                `${name} ${caller}/${target}: expected ${canonical} or ${unrouted.join('/')}, got ${response.statusCode}`,
              );
          }
        }
      }
      expect(wrong).toEqual([]);
    });
  });

  it("gives clients the same 404 body for another client's object as for a missing one", () => {
    const pairs: Array<[string, string]> = [];
    for (const { row } of rows) {
      const route = row.route;
      for (const [caller, other] of [
        ['clientA', 'other'],
        ['clientB', 'own'],
      ] as const) {
        const foreign = answers.get(`${route}|${caller}|${other}`);
        const missing = answers.get(`${route}|${caller}|missing`);
        if (!foreign || !missing || foreign.status !== 404) continue;
        pairs.push([`${route} ${caller}: ${foreign.body}`, `${route} ${caller}: ${missing.body}`]);
      }
    }
    // Both spec calls and the bookmark toggle take objects a client may or may not own.
    expect(pairs.length).toBeGreaterThanOrEqual(6);
    for (const [foreign, missing] of pairs) expect(foreign).toBe(missing);
  });
});
