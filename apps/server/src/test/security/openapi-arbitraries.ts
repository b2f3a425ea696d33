import fc from 'fast-check';

// fast-check generators derived from the OpenAPI document: for each operation, requests whose
// path, query, body and headers are valid, deliberately invalid, or valid in shape but full of
// hostile text. Deliberately invalid requests are tagged, so the fuzz test can insist on a 4xx.

/** A JSON Schema as the OpenAPI 3.1 document holds it (only the keywords zod emits). */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
  pattern?: string;
  default?: unknown;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** OpenAPI path with `{param}` placeholders. */
  path: string;
  parameters: Parameter[];
  body?: { schema: JsonSchema; required: boolean };
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  security: 'none' | 'key' | 'user' | 'ingest';
}

/** Values worth trying for a field, by its name: real objects of the test world, so that requests get past lookups. */
export type Pools = Record<string, readonly unknown[]>;

/** Text an attacker would try: SQL, traversal, markup, control characters, unicode oddities, very long strings. */
export const hostileStrings: readonly string[] = [
  "' OR '1'='1",
  "'; DROP TABLE readings; --",
  '" OR ""="',
  '1; SELECT pg_sleep(5)--',
  "') UNION SELECT password_hash, email FROM users--",
  '$$; DELETE FROM users; $$',
  '%',
  '_',
  '\\',
  '%_%',
  "\\'",
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  '%2e%2e%2f%2e%2e%2f',
  'file:///etc/passwd',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '{{7*7}}',
  '${7*7}',
  '__proto__',
  'constructor',
  'x'.repeat(10_000),
  'é'.repeat(300),
  '\u0000',
  'a\u0000b',
  '\r\nX-Injected: 1',
  '\t',
  '\u001b[31m',
  '\u007f',
  '\u202e',
  '\u200b',
  '\ufeff',
  '\ud800',
  'a\udfffb',
  '💡'.repeat(50),
  'Ａｄｍｉｎ',
  'İ',
  'ß',
  'e\u0301',
  '\u0301',
  ' ',
  '',
  '   padded   ',
  'null',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '0x10',
  '9'.repeat(40),
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '2026-03-29T02:30:00',
  '2026-01-01T00:00:00+25:00',
  '9999-12-31',
  '-271821-04-20',
  '1970-01-01T00:00:00Z',
  '275760-09-13T00:00:00Z',
  'Europe/../../etc',
  'Etc/GMT+14',
  'UTC; DROP',
];

/** Raw URL pieces: percent-encodings that are not UTF-8 (or decode to NUL, CR LF, slashes), stray separators. */
const rawUrlOddities = [
  '%FF',
  '%C0%AF',
  '%ED%A0%80',
  '%E0%80',
  '%',
  '%zz',
  '%00',
  '%0D%0A',
  '..%2F..%2F',
  '%2F',
  '+',
  ';x=1',
];

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  remoteAddress: string;
  /** True when something in the request is invalid on purpose: the answer must be a 4xx. */
  isInvalid: boolean;
  /** The /api/ prefix is spelled another way: the answer may also be 404 (no route), never more than the route allows. */
  isRespelled: boolean;
  /** What was done to the request, for failure messages. */
  notes: string[];
}

interface Part<T> {
  value: T;
  isInvalid: boolean;
  note?: string;
}

export class OpenApiArbitraries {
  constructor(
    private readonly components: Record<string, JsonSchema>,
    private readonly pools: Pools,
  ) {}

  resolve(schema: JsonSchema): JsonSchema {
    if (!schema.$ref) return schema;
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = this.components[name];
    if (!target) throw new Error(`unresolved $ref ${schema.$ref}`);
    return this.resolve(target);
  }

  private types(schema: JsonSchema): string[] {
    if (Array.isArray(schema.type)) return schema.type;
    if (schema.type) return [schema.type];
    return [];
  }

  /** Values the schema accepts (as JSON values); `name` picks real objects from the pools. */
  valid(input: JsonSchema, name = '', depth = 0, poolOnly = false): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants) return fc.oneof(...variants.map((v) => this.valid(v, name, depth, poolOnly)));
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const types = this.types(schema);
    if (types.length > 1)
      return fc.oneof(...types.map((type) => this.valid({ ...schema, type }, name, depth, poolOnly)));
    const pool = this.pools[name];
    switch (types[0]) {
      case 'string': {
        const max = schema.maxLength ?? 60;
        const min = schema.minLength ?? 0;
        const fits = (value: string) => value.trim().length >= min && value.length <= max;
        const base =
          schema.format === 'date-time'
            ? fc
                .date({
                  min: new Date('2025-06-01T00:00:00Z'),
                  max: new Date('2026-06-01T00:00:00Z'),
                  noInvalidDate: true,
                })
                .map((date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z'))
            : schema.format === 'email'
              ? fc.emailAddress().filter((value) => value.length <= max)
              : fc.string({ minLength: Math.max(1, min), maxLength: Math.min(max, 40) }).filter(fits);
        const pooled = (pool ?? []).filter((v): v is string => typeof v === 'string' && fits(v));
        if (pooled.length > 0 && poolOnly) return fc.constantFrom(...pooled);
        return pooled.length > 0
          ? fc.oneof({ arbitrary: fc.constantFrom(...pooled), weight: 3 }, base)
          : base;
      }
      case 'integer':
      case 'number': {
        const min =
          schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1e6);
        const max =
          schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1e9);
        const base =
          types[0] === 'integer'
            ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
            : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
        const pooled = (pool ?? []).filter((v): v is number => typeof v === 'number' && v >= min && v <= max);
        if (pooled.length > 0 && poolOnly) return fc.constantFrom(...pooled);
        return pooled.length > 0
          ? fc.oneof({ arbitrary: fc.constantFrom(...pooled), weight: 3 }, base)
          : base;
      }
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const items = schema.items ?? {};
        return fc.array(this.valid(items, name, depth + 1, poolOnly), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 4, 4),
        });
      }
      case 'object': {
        const properties = schema.properties ?? {};
        const required = new Set(schema.required ?? []);
        const record: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [key, value] of Object.entries(properties)) {
          const item = this.valid(value, key, depth + 1, poolOnly);
          record[key] = required.has(key) ? item : fc.option(item, { nil: undefined });
        }
        return fc
          .record(record)
          .map((object) =>
            Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)),
          );
      }
      default:
        // No type: anything JSON.
        return depth > 2 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
    }
  }

  /**
   * A value of the right shape with hostile text in every string (and extreme numbers): may or
   * may not be valid, and must never make the server fail.
   */
  hostile(input: JsonSchema, name = '', depth = 0): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants) return fc.oneof(...variants.map((v) => this.hostile(v, name, depth)));
    const types = this.types(schema);
    if (schema.enum || schema.const !== undefined)
      return fc.oneof(this.valid(schema, name, depth), fc.constantFrom(...hostileStrings));
    switch (types[0]) {
      case 'string':
        return fc.oneof(
          fc.constantFrom(...hostileStrings),
          fc.string({ unit: 'binary', maxLength: 80 }),
          this.valid(schema, name, depth),
        );
      case 'integer':
      case 'number':
        return fc.oneof(
          fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, -1e308, 0.5, Number.MIN_VALUE),
          this.valid(schema, name, depth),
        );
      case 'array':
        return fc.array(this.hostile(schema.items ?? {}, name, depth + 1), { maxLength: 4 });
      case 'object': {
        const record: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [key, value] of Object.entries(schema.properties ?? {})) {
          record[key] = fc.option(this.hostile(value, key, depth + 1), { nil: undefined, freq: 4 });
        }
        return fc
          .record(record)
          .map((object) =>
            Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)),
          );
      }
      default:
        return this.valid(schema, name, depth);
    }
  }

  /** A value the schema refuses, with a note saying why; undefined when the schema accepts everything. */
  invalid(input: JsonSchema, name = ''): fc.Arbitrary<Part<unknown>> | undefined {
    const schema = this.resolve(input);
    const options: Array<fc.Arbitrary<Part<unknown>>> = [];
    const part = (value: unknown, note: string): Part<unknown> => ({
      value,
      isInvalid: true,
      note: `${name}: ${note}`,
    });
    const types = this.types(schema);
    const accepts = (type: string) =>
      types.includes(type) ||
      (schema.anyOf ?? schema.oneOf ?? []).some((v) => this.types(this.resolve(v)).includes(type));
    if (schema.anyOf || schema.oneOf) {
      // Only shapes no variant takes.
      if (!accepts('object') && !accepts('array'))
        options.push(fc.constant(part({ nested: true }, 'an object')));
      return options.length > 0 ? fc.oneof(...options) : undefined;
    }
    if (schema.enum) options.push(fc.constant(part('not-one-of-them', 'not in the enum')));
    if (types.length === 0) return undefined;
    if (!accepts('string')) options.push(fc.constant(part('a string', 'a string')));
    if (!accepts('object')) options.push(fc.constant(part({ a: 1 }, 'an object')));
    if (!accepts('array')) options.push(fc.constant(part([1, 2], 'an array')));
    if (accepts('string') && !schema.enum) {
      options.push(fc.constant(part(42, 'a number for a string')));
      if (schema.maxLength !== undefined)
        options.push(fc.constant(part('y'.repeat(schema.maxLength + 1), 'too long')));
      if ((schema.minLength ?? 0) >= 1) options.push(fc.constant(part('', 'empty')));
    }
    if (accepts('integer') || accepts('number')) {
      options.push(fc.constant(part('twelve', 'a word for a number')));
      if (accepts('integer')) options.push(fc.constant(part(1.5, 'not whole')));
      if (schema.maximum !== undefined) options.push(fc.constant(part(schema.maximum + 1, 'above maximum')));
      const min = schema.minimum ?? schema.exclusiveMinimum;
      if (min !== undefined) options.push(fc.constant(part(min - 1, 'below minimum')));
    }
    if (accepts('object') && schema.properties) {
      const required = schema.required ?? [];
      const valid = this.valid(schema, name) as fc.Arbitrary<Record<string, unknown>>;
      if (required.length > 0) {
        options.push(
          fc.tuple(valid, fc.constantFrom(...required)).map(([object, drop]) => {
            const copy = { ...object };
            delete copy[drop];
            return part(copy, `missing ${drop}`);
          }),
        );
      }
      if (schema.additionalProperties === false) {
        options.push(valid.map((object) => part({ ...object, isAdmin: true }, 'an unknown property')));
      }
      const keys = Object.keys(schema.properties);
      if (keys.length > 0) {
        options.push(
          fc.tuple(valid, fc.constantFrom(...keys)).chain(([object, key]) => {
            const bad = this.invalid(schema.properties?.[key] ?? {}, key);
            return bad
              ? bad.map((b) => part({ ...object, [key]: b.value }, b.note ?? key))
              : fc.constant(part([object], 'wrapped in an array'));
          }),
        );
      }
    }
    return options.length > 0 ? fc.oneof(...options) : undefined;
  }

  /** A query or path parameter as text: valid, deliberately invalid, or hostile. */
  parameter(parameter: Parameter, onlyValid = false): fc.Arbitrary<Part<string | undefined>> {
    const schema = this.resolve(parameter.schema);
    const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
    const valid = this.valid(schema, parameter.name, 0, onlyValid).map((value): Part<string | undefined> => ({
      value: asText(value),
      isInvalid: false,
    }));
    if (onlyValid) {
      return parameter.required
        ? valid
        : fc.oneof(valid, fc.constant({ value: undefined, isInvalid: false }));
    }
    const options: Array<fc.WeightedArbitrary<Part<string | undefined>>> = [{ arbitrary: valid, weight: 6 }];
    if (!parameter.required)
      options.push({ arbitrary: fc.constant({ value: undefined, isInvalid: false }), weight: 4 });
    const invalid: string[] = [];
    const type = this.types(schema)[0];
    if (parameter.required && parameter.in === 'query') invalid.push('\u0001missing');
    if (schema.enum) invalid.push('not-one-of-them');
    if (type === 'integer' || type === 'number') {
      invalid.push('abc', '1.5x');
      if (type === 'integer') invalid.push('1.5');
      if (schema.maximum !== undefined) invalid.push(String(schema.maximum + 1));
      const min = schema.minimum ?? schema.exclusiveMinimum;
      if (min !== undefined) invalid.push(String(min - 1));
    }
    if (type === 'string' && !schema.enum) {
      if (schema.maxLength !== undefined) invalid.push('z'.repeat(schema.maxLength + 1));
      if ((schema.minLength ?? 0) >= 1 && parameter.in === 'query') invalid.push('', '   ');
    }
    if (invalid.length > 0) {
      options.push({
        arbitrary: fc
          .constantFrom(...invalid)
          .map((value) =>
            value === '\u0001missing'
              ? { value: undefined, isInvalid: true, note: `${parameter.name}: missing` }
              : { value, isInvalid: true, note: `${parameter.name}: ${JSON.stringify(value.slice(0, 20))}` },
          ),
        weight: 2,
      });
    }
    options.push({
      arbitrary: fc
        .constantFrom(...hostileStrings)
        .map((value) => ({ value, isInvalid: false, note: `${parameter.name}: hostile` })),
      weight: 2,
    });
    return fc.oneof(...options);
  }
}

/** Appends `name=value` to a query; sometimes with raw percent-encodings that are not valid UTF-8, or the name twice. */
export function queryPart(
  name: string,
  value: string,
  oddity: number,
): { text: string; isInvalid: boolean; note?: string } {
  const encoded = `${encodeURIComponent(name)}=${encodeLoosely(value)}`;
  if (oddity === 1) return { text: `${encoded}&${encoded}x`, isInvalid: true, note: `${name} twice` };
  if (oddity === 2) {
    const raw = rawUrlOddities[value.length % rawUrlOddities.length] ?? '%FF';
    return { text: `${encoded}${raw}`, isInvalid: false, note: `${name} + raw ${raw}` };
  }
  return { text: encoded, isInvalid: false };
}

/**
 * encodeURIComponent that does not throw on lone surrogates: they go out as the bytes a careless
 * encoder would write (CESU-8, not valid UTF-8), which is one more thing for the server to refuse.
 */
export function encodeLoosely(value: string): string {
  return value
    .split(/([\ud800-\udfff])/)
    .map((piece) => {
      if (piece.length !== 1 || !/[\ud800-\udfff]/.test(piece)) return encodeURIComponent(piece);
      const code = piece.charCodeAt(0);
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    })
    .join('');
}

/**
 * Other spellings of the `/api/` prefix: percent-encoded, doubled or dotted slashes, upper case, a
 * trailing slash. The router decodes some and matches none of the others: a request spelled so
 * runs its route (and must pass the same key check) or finds none (404).
 */
const apiPrefixSpellings: ReadonlyArray<[string, (path: string) => string]> = [
  ['%61pi', (path) => path.replace(/^\/api\//, '/%61pi/')],
  ['%2F', (path) => path.replace(/^\/api\//, '/api%2F')],
  ['//api', (path) => `/${path}`],
  ['/api/./', (path) => path.replace(/^\/api\//, '/api/./')],
  ['/api/../api/', (path) => path.replace(/^\/api\//, '/api/../api/')],
  ['upper case', (path) => path.replace(/^\/api\//, '/API/')],
  ['trailing slash', (path) => `${path}/`],
];

export { apiPrefixSpellings, rawUrlOddities };
