import { randomBytes } from 'node:crypto';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { hashApiKey } from '../../modules/api-keys/api-keys.service.ts';
import { createTestApp } from '../test-app.ts';
import {
  hostileStrings,
  OpenApiArbitraries,
  encodeLoosely,
  queryPart,
  apiPrefixSpellings,
  rawUrlOddities,
  type FuzzRequest,
  type JsonSchema,
  type Operation,
  type Parameter,
} from './openapi-arbitraries.ts';
import { buildWorld } from './world.ts';

// API fuzzing from the OpenAPI document of the real app (in-process, embedded PGlite, so it runs
// once: *.unit.test.ts). For every operation, requests generated from its parameter and body
// schemas — valid, deliberately invalid, and valid in shape but full of hostile text, bytes and
// headers — at least MIN_REQUESTS in all. Every answer must be: not a 5xx, a status the document
// lists for that operation, a body its schema accepts (ajv), and a 4xx for a deliberately invalid
// request. Replay a run with CM_FUZZ_SEED=<seed printed on failure>.

const MIN_REQUESTS = 10_000;
// CI replays one fixed seed so that a green build stays green; every other run explores a new one.
const CI_SEED = 20_261_122;
const seed = Number(process.env.CM_FUZZ_SEED ?? (process.env.CI ? CI_SEED : Date.now() % 2_147_483_647));

const t = await createTestApp();
const w = await buildWorld(t);
afterAll(() => t.close());

// The fuzzer may disable, demote or reset any user and revoke any key whose id it guesses. It signs
// in as an administrator and with keys whose ids no generator comes near, so that later requests
// still reach the routes instead of all testing the login.
const FUZZ_ID = 1_500_000_000;
const fuzzAdmin =
  (
    await t.db.query<{ id: number }>(
      "INSERT INTO users (id, email, full_name, password_hash, role_id) VALUES ($1, 'fuzz.admin@sec.cm', 'Fuzz admin', 'not-a-hash', 1) RETURNING id",
      [FUZZ_ID],
    )
  )[0]?.id ?? FUZZ_ID;
async function fuzzKey(id: number, scope: string): Promise<string> {
  const key = `cm_fuzz_${scope}_${randomBytes(24).toString('base64url')}`;
  await t.db.query('INSERT INTO api_keys (id, name, prefix, key_hash, scopes) VALUES ($1, $2, $3, $4, $5)', [
    id,
    `Fuzz ${scope}`,
    key.slice(0, 11),
    hashApiKey(key),
    [scope],
  ]);
  return key;
}
const fuzzKeys = { web: await fuzzKey(FUZZ_ID, 'web'), ingest: await fuzzKey(FUZZ_ID + 1, 'ingest') };

interface OpenApiDocument {
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}
interface RawOperation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses: Operation['responses'];
}

const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<OpenApiDocument>();
const components = document.components?.schemas ?? {};

function securityOf(path: string): Operation['security'] {
  if (path === '/api/health') return 'none';
  if (path.startsWith('/api/ingest/')) return 'ingest';
  if (path === '/api/auth/login') return 'key';
  return 'user';
}

const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, raw]) => ({
    method: method.toUpperCase(),
    path,
    parameters: raw.parameters ?? [],
    ...(raw.requestBody?.content?.['application/json']?.schema
      ? {
          body: {
            schema: raw.requestBody.content['application/json'].schema,
            required: raw.requestBody.required ?? false,
          },
        }
      : {}),
    responses: raw.responses,
    security: securityOf(path),
  })),
);

// Real objects of the test world, so that generated requests reach past the lookups. The
// administrator and the API key the fuzzer signs in with are left out: disabling or revoking them
// would only test the login.
const pools = {
  meterNumber: [w.own.meterNumber, w.other.meterNumber, w.missing.meterNumber],
  newMeterNumber: ['SEC-A-0002', 'SEC-NEW-1'],
  name: [w.own.locationName, w.other.locationName, w.own.locationName.toLowerCase(), w.missing.locationName],
  publicName: [w.own.locationName, 'Block N / Apt 1'],
  From: ['2026-01-10', '2026-01-11', '2025-01-01', '2026-01-10T06:00:00+01:00', '2026-01-12T00:00:00Z'],
  To: ['2026-01-12', '2026-01-13', '2026-12-31', '2026-01-11T12:00:00Z', '2036-01-01'],
  timeZone: ['Europe/Berlin', 'America/New_York', 'UTC', 'Asia/Kathmandu'],
  id: [
    w.ids.clientA,
    w.ids.clientB,
    w.own.locationId,
    w.other.locationId,
    w.own.cubeId,
    w.own.apiKeyId,
    w.other.apiKeyId,
    2_000_000_000,
  ],
  locationId: [w.own.locationId, w.other.locationId, w.missing.locationId],
  locationIds: [w.own.locationId, w.other.locationId],
  cubeId: [w.own.cubeId, w.other.cubeId, w.own.accessPointId],
  parentId: [w.own.accessPointId, w.other.cubeId],
  email: [w.emails.clientA, 'new.client@sec.cm'],
  password: [w.passwords.clientA, 'Another!password-1'],
  currentPassword: ['Admin!secure-01', 'wrong'],
  id_bookmark: [
    w.own.bookmarkId,
    w.other.bookmarkId,
    'page:check',
    'page:admin',
    `location:${w.own.locationName}`,
  ],
  q: ['SEC', 'Block', 'a', '0001'],
  readAt: ['2026-01-13T08:00:00Z', '2026-01-12T23:45:00+01:00', '2026-01-10T00:00:00Z'],
};
const arbitraries = new OpenApiArbitraries(components, { ...pools, id: [...pools.id, ...pools.id_bookmark] });

// ---- Who calls ----
type Auth = { headers: Record<string, string>; isBad: 'key' | 'token' | false; note: string };
const adminToken = () => w.mintToken(fuzzAdmin);
async function authFor(kind: string): Promise<Auth> {
  const key = { [API_KEY_HEADER]: fuzzKeys.web };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  switch (kind) {
    case 'admin':
      return { headers: { ...key, ...bearer(await adminToken()) }, isBad: false, note: 'admin' };
    case 'clientA':
      return {
        headers: { ...key, ...bearer(await w.mintToken(w.ids.clientA)) },
        isBad: false,
        note: 'client A',
      };
    case 'ingest':
      return { headers: { [API_KEY_HEADER]: fuzzKeys.ingest }, isBad: false, note: 'ingest key' };
    case 'noKey':
      return { headers: bearer(await adminToken()), isBad: 'key', note: 'no key' };
    case 'garbageKey':
      return {
        headers: { [API_KEY_HEADER]: "cm_' OR 1=1 --", ...bearer(await adminToken()) },
        isBad: 'key',
        note: 'garbage key',
      };
    case 'longKey':
      return {
        headers: { [API_KEY_HEADER]: 'k'.repeat(5000), ...bearer(await adminToken()) },
        isBad: 'key',
        note: 'long key',
      };
    case 'revokedKey':
      return {
        headers: { [API_KEY_HEADER]: w.keys.revoked, ...bearer(await adminToken()) },
        isBad: 'key',
        note: 'revoked key',
      };
    case 'noToken':
      return { headers: key, isBad: 'token', note: 'no token' };
    case 'garbageToken':
      return {
        headers: { ...key, authorization: 'Bearer ../../etc/passwd' },
        isBad: 'token',
        note: 'garbage token',
      };
    case 'basic':
      return {
        headers: { ...key, authorization: 'Basic YWRtaW46YWRtaW4=' },
        isBad: 'token',
        note: 'basic auth',
      };
    case 'noneToken': {
      const [, payload] = (await adminToken()).split('.');
      return {
        headers: { ...key, authorization: `Bearer eyJhbGciOiJub25lIn0.${payload}.` },
        isBad: 'token',
        note: 'alg none',
      };
    }
    default:
      return {
        headers: { ...key, ...bearer(await w.mintToken(fuzzAdmin, -5)) },
        isBad: 'token',
        note: 'expired token',
      };
  }
}
const callerArbitrary = (op: Operation) =>
  fc.oneof(
    { arbitrary: fc.constant(op.security === 'ingest' ? 'ingest' : 'admin'), weight: 14 },
    { arbitrary: fc.constant('clientA'), weight: 3 },
    {
      arbitrary: fc.constantFrom(
        'noKey',
        'garbageKey',
        'longKey',
        'revokedKey',
        'noToken',
        'garbageToken',
        'basic',
        'noneToken',
        'expired',
      ),
      weight: 3,
    },
  );

// ---- Headers that must change nothing ----
const headerSafe = (value: string) => value.replace(/[^\t\x20-\x7e]/g, '?');
const noiseHeaders = fc.record(
  {
    accept: fc.constantFrom(
      '*/*',
      'application/xml',
      'text/html',
      'application/json;q=0',
      headerSafe(hostileStrings[0] ?? ''),
    ),
    'x-forwarded-for': fc.constantFrom('127.0.0.1, 10.0.0.1', 'not-an-ip', "' OR 1=1"),
    'x-forwarded-proto': fc.constantFrom('https', 'gopher'),
    cookie: fc.constantFrom('session=../../etc; admin=true', 'a'.repeat(4000)),
    'accept-language': fc.constantFrom('fr-CH, fr;q=0.9', '*', headerSafe('\u0000x')),
    'x-http-method-override': fc.constantFrom('DELETE', 'GET'),
  },
  { requiredKeys: [] },
);

// ---- Bodies ----
type BodyPart = { payload?: string | Buffer; contentType?: string; isInvalid: boolean; note?: string };
function jsonBody(op: Operation): fc.Arbitrary<BodyPart> {
  const body = op.body;
  if (!body) {
    // Routes without a body: a stray one changes nothing.
    return fc.oneof(
      { arbitrary: fc.constant<BodyPart>({ isInvalid: false }), weight: 9 },
      {
        arbitrary: fc.constant<BodyPart>({
          payload: '{"isAdmin":true}',
          contentType: 'application/json',
          isInvalid: false,
          note: 'stray body',
        }),
        weight: 1,
      },
    );
  }
  const json = 'application/json';
  const valid = arbitraries
    .valid(body.schema)
    .map((value): BodyPart => ({ payload: JSON.stringify(value), contentType: json, isInvalid: false }));
  const hostile = arbitraries.hostile(body.schema).map((value): BodyPart => ({
    payload: JSON.stringify(value),
    contentType: json,
    isInvalid: false,
    note: 'hostile body',
  }));
  const invalid = arbitraries.invalid(body.schema);
  const options: Array<fc.WeightedArbitrary<BodyPart>> = [
    { arbitrary: valid, weight: 8 },
    { arbitrary: hostile, weight: 5 },
    {
      arbitrary: fc
        .constantFrom('{"a":', '{', '[', 'nul', '{"a":1}}', "{'a':1}", '\u0000', '{"a":"\\x41"}')
        .map((payload): BodyPart => ({
          payload,
          contentType: json,
          isInvalid: true,
          note: `malformed JSON ${JSON.stringify(payload)}`,
        })),
      weight: 1,
    },
    {
      // Bytes that are not UTF-8 inside a JSON string.
      arbitrary: valid.map(({ payload }): BodyPart => {
        const text = String(payload);
        const at = Math.max(0, text.indexOf('"', 2));
        return {
          payload: Buffer.concat([
            Buffer.from(text.slice(0, at + 1)),
            Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80]),
            Buffer.from(text.slice(at + 1)),
          ]),
          contentType: json,
          isInvalid: false,
          note: 'invalid UTF-8 bytes',
        };
      }),
      weight: 1,
    },
    {
      arbitrary: fc
        .constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/xml',
          'multipart/form-data; boundary=x',
        )
        .chain((contentType) =>
          valid.map(({ payload }): BodyPart => ({
            payload,
            contentType,
            isInvalid: true,
            note: `content-type ${contentType}`,
          })),
        ),
      weight: 1,
    },
  ];
  if (invalid) {
    options.push({
      arbitrary: invalid.map((part): BodyPart => ({
        payload: JSON.stringify(part.value),
        contentType: json,
        isInvalid: true,
        note: `invalid body (${part.note})`,
      })),
      weight: 4,
    });
  }
  // Leaving the body out is invalid exactly when the document says the body is required.
  options.push({
    arbitrary: fc.constant<BodyPart>({ isInvalid: body.required, note: 'no body' }),
    weight: 1,
  });
  return fc.oneof(...options);
}

function wellFormedBody(op: Operation): fc.Arbitrary<BodyPart> {
  if (!op.body) return fc.constant<BodyPart>({ isInvalid: false });
  return arbitraries.valid(op.body.schema, '', 0, true).map((value): BodyPart => ({
    payload: JSON.stringify(value),
    contentType: 'application/json',
    isInvalid: false,
  }));
}

// Files for the import route: CSV and ESPI XML with hostile cells, entity tricks and odd encodings.
const csvCell = fc.oneof(
  fc.constantFrom(...pools.meterNumber, '2026-01-13T09:00:00Z', '1700.5', 'Europe/Berlin'),
  fc.constantFrom(...hostileStrings),
);
const importBody: fc.Arbitrary<BodyPart> = fc.oneof(
  fc.array(fc.array(csvCell, { minLength: 1, maxLength: 5 }), { maxLength: 12 }).chain((rows) =>
    fc
      .constantFrom(
        'meter_number,timestamp,register_kwh',
        'meter_number,timestamp,interval_kwh,time_zone,quality',
        '',
        'a;b;c',
      )
      .map((header): BodyPart => ({
        payload: [
          header,
          ...rows.map((row) =>
            row.map((cell) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(','),
          ),
        ].join('\n'),
        contentType: 'text/csv',
        isInvalid: false,
        note: 'csv file',
      })),
  ),
  fc
    .constantFrom(
      '<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><feed xmlns="http://www.w3.org/2005/Atom"><entry><content>&xxe;</content></entry></feed>',
      '<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><feed>&c;</feed>',
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry><content><IntervalBlock><IntervalReading><timePeriod><start>x</start></timePeriod><value>-1</value></IntervalReading></IntervalBlock></content></entry></feed>',
      '<feed><unclosed>',
      '',
    )
    .map((payload): BodyPart => ({
      payload,
      contentType: 'application/atom+xml',
      isInvalid: false,
      note: 'espi file',
    })),
  fc.constantFrom('application/json', 'text/plain').map((contentType): BodyPart => ({
    payload: '{"a":1}',
    contentType,
    isInvalid: false,
    note: `import as ${contentType}`,
  })),
);

// ---- Whole requests ----
/**
 * What one request will be. Half the requests are well-formed throughout (real objects, a good
 * caller), so that they reach deep into the handlers; the other half mix in invalid and hostile parts.
 */
function planArbitrary(op: Operation) {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const isImport = op.path === '/api/admin/imports';
  const plan = (wellFormed: boolean) =>
    fc.record({
      caller: wellFormed ? fc.constant(op.security === 'ingest' ? 'ingest' : 'admin') : callerArbitrary(op),
      path: fc.tuple(...pathParams.map((p) => arbitraries.parameter({ ...p, required: true }, wellFormed))),
      pathOddity: wellFormed
        ? fc.constant('')
        : fc.oneof({ arbitrary: fc.constant(''), weight: 8 }, fc.constantFrom(...rawUrlOddities)),
      spelling: fc.oneof({ arbitrary: fc.constant(-1), weight: 10 }, fc.nat(apiPrefixSpellings.length - 1)),
      query: fc.tuple(
        ...queryParams.map((p) =>
          fc.tuple(arbitraries.parameter(p, wellFormed), wellFormed ? fc.constant(0) : fc.nat(24)),
        ),
      ),
      extraQuery: fc.oneof(
        { arbitrary: fc.constant(''), weight: 8 },
        fc.constantFrom('&unknown=1', '&__proto__[x]=1', '&a[b]=c'),
      ),
      body: isImport ? importBody : wellFormed ? wellFormedBody(op) : jsonBody(op),
      noise: noiseHeaders,
      remoteAddress: fc.ipV4(),
    });
  return fc.oneof(plan(true), plan(false));
}
type Plan = ReturnType<typeof planArbitrary> extends fc.Arbitrary<infer T> ? T : never;

/** Turns a generated plan into a request (signing in takes a database write, so this part is async). */
async function buildRequest(op: Operation, r: Plan): Promise<FuzzRequest> {
  const notes: string[] = [];
  let isInvalid = false;
  let path = op.path;
  op.parameters
    .filter((p) => p.in === 'path')
    .forEach((parameter, index) => {
      const part = r.path[index];
      // Raw bytes appended to a value may change whether it is valid: only a plain invalid value counts.
      if (part?.isInvalid && !r.pathOddity) isInvalid = true;
      if (part?.note) notes.push(part.note);
      path = path.replace(`{${parameter.name}}`, encodeLoosely(part?.value ?? '') + r.pathOddity);
    });
  if (r.pathOddity) notes.push(`path + ${r.pathOddity}`);
  // The spellings try the API key check, which is the /api routes' (the ESPI API takes a token).
  const spelling = op.path.startsWith('/api/') ? apiPrefixSpellings[r.spelling] : undefined;
  if (spelling) {
    path = spelling[1](path);
    notes.push(`prefix spelled ${spelling[0]}`);
  }
  const query: string[] = [];
  op.parameters
    .filter((p) => p.in === 'query')
    .forEach((parameter, index) => {
      const [part, oddity] = r.query[index] ?? [];
      if (!part) return;
      const text = part.value === undefined ? undefined : queryPart(parameter.name, part.value, oddity ?? 0);
      if (part.isInvalid && !text?.note?.includes(' + raw ')) isInvalid = true;
      if (part.note) notes.push(part.note);
      if (!text) return;
      if (text.isInvalid) isInvalid = true;
      if (text.note) notes.push(text.note);
      query.push(text.text);
    });
  const auth = await authFor(r.caller);
  notes.push(auth.note);
  if (auth.isBad === 'key' && op.security !== 'none') isInvalid = true;
  if (auth.isBad === 'token' && op.security === 'user') isInvalid = true;
  if (r.body.isInvalid) isInvalid = true;
  if (r.body.note) notes.push(r.body.note);
  const url = `${path}${query.length > 0 || r.extraQuery ? '?' : ''}${query.join('&')}${r.extraQuery}`;
  return {
    method: op.method,
    url,
    isRespelled: spelling !== undefined,
    headers: {
      ...r.noise,
      ...auth.headers,
      ...(r.body.contentType ? { 'content-type': r.body.contentType } : {}),
    },
    ...(r.body.payload === undefined ? {} : { payload: r.body.payload }),
    remoteAddress: r.remoteAddress,
    isInvalid,
    notes,
  };
}

// ---- Checking answers ----
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();
function validatorFor(op: Operation, status: string, schema: JsonSchema): ValidateFunction {
  const key = `${op.method} ${op.path} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ ...schema, components: { schemas: components } });
    validators.set(key, validate);
  }
  return validate;
}

/**
 * Findings reported to the owner of a route and not fixed yet, by operation and problem. Each entry
 * says why; remove it once fixed (the test then guards the fix).
 */
const knownGaps: Array<{ operation: string; problem: RegExp; why: string }> = [];

interface Finding {
  operation: string;
  problem: string;
  request: string;
  answer: string;
}
const findings = new Map<string, Finding & { count: number }>();
const statusCounts = new Map<string, Map<number, number>>();
let sent = 0;

function record(op: Operation, request: FuzzRequest, status: number, body: string, problem: string) {
  const operation = `${op.method} ${op.path}`;
  if (knownGaps.some((gap) => gap.operation === operation && gap.problem.test(problem))) return;
  const key = `${operation}: ${problem}`;
  const existing = findings.get(key);
  if (existing) {
    existing.count += 1;
    return;
  }
  findings.set(key, {
    operation: `${op.method} ${op.path}`,
    problem,
    request: `${request.method} ${request.url.slice(0, 300)} [${request.notes.join('; ')}] ${String(request.payload ?? '').slice(0, 300)}`,
    answer: `${status} ${body.slice(0, 300)}`,
    count: 1,
  });
}

async function send(op: Operation, request: FuzzRequest) {
  const response = await t.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: request.headers,
    remoteAddress: request.remoteAddress,
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  });
  sent += 1;
  const status = response.statusCode;
  const counts = statusCounts.get(`${op.method} ${op.path}`) ?? new Map<number, number>();
  counts.set(status, (counts.get(status) ?? 0) + 1);
  statusCounts.set(`${op.method} ${op.path}`, counts);
  if (status >= 500) record(op, request, status, response.body, `answered ${status}`);
  if (request.isInvalid && (status < 400 || status >= 500))
    record(op, request, status, response.body, `invalid request answered ${status}`);
  // A respelled path that runs no route answers 404, or 401 without a valid key: the document
  // describes the route's answers.
  if (request.isRespelled && (status === 404 || status === 401)) return;
  const documented =
    op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
  if (!documented) {
    record(op, request, status, response.body, `status ${status} is not documented`);
    return;
  }
  const schema = documented.content?.['application/json']?.schema;
  if (status === 204) {
    if (response.body !== '') record(op, request, status, response.body, '204 with a body');
    return;
  }
  if (!schema) return;
  if (!String(response.headers['content-type'] ?? '').startsWith('application/json')) {
    record(
      op,
      request,
      status,
      response.body,
      `status ${status} answered ${String(response.headers['content-type'])}, not JSON`,
    );
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    record(op, request, status, response.body, `status ${status} body is not JSON`);
    return;
  }
  const validate = validatorFor(op, String(status), schema);
  if (!validate(parsed)) {
    const error = validate.errors?.[0];
    record(
      op,
      request,
      status,
      response.body,
      `status ${status} body does not match its schema: ${error?.instancePath} ${error?.message}`,
    );
  }
}

// Argon2 makes password routes ~30 ms a request; they get fewer runs and the rest more, ≥ MIN_REQUESTS in all.
const isSlow = (op: Operation) =>
  /login|change-password|reset-password/.test(op.path) ||
  (op.path === '/api/admin/users' && op.method === 'POST');
const slowRuns = 120;
const slowCount = operations.filter(isSlow).length;
const fastRuns = Math.ceil((MIN_REQUESTS + 200 - slowRuns * slowCount) / (operations.length - slowCount));

describe(`API fuzzing from the OpenAPI document (seed ${seed})`, () => {
  it('finds operations with their parameters and bodies in the document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(40);
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)];
    expect(refs.map((match) => match[1]).filter((name) => !name || !(name in components))).toEqual([]);
  });

  it.each(operations.map((op, index) => [`${op.method} ${op.path}`, op, index] as const))(
    '%s',
    async (_name, op, index) => {
      const plans = fc.sample(planArbitrary(op), {
        numRuns: isSlow(op) ? slowRuns : fastRuns,
        seed: seed + index,
      });
      for (const plan of plans) {
        await send(op, await buildRequest(op, plan));
      }
    },
    120_000,
  );

  it(`sent at least ${MIN_REQUESTS} requests, and every answer was documented, valid and not a 5xx`, () => {
    const summary = [...statusCounts.entries()].map(
      ([operation, counts]) =>
        `${operation.padEnd(80)} ${[...counts.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
    );
    console.log(`fuzz seed ${seed}: ${sent} requests\n${summary.join('\n')}`);
    expect(sent).toBeGreaterThanOrEqual(MIN_REQUESTS);
    const problems = [...findings.values()].map(
      (finding) =>
        `${finding.operation} — ${finding.problem} (×${finding.count})\n    request: ${finding.request}\n    answer: ${finding.answer}`,
    );
    expect(problems, `replay with CM_FUZZ_SEED=${seed}`).toEqual([]);
  });
});
