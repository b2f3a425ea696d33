import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaJsonWriter } from './schema-json.ts';

const schema = z.object({
  meterNumber: z.string(),
  lastReading: z.object({ at: z.string(), value: z.number() }).nullable(),
  channels: z.array(z.enum(['import', 'export'])),
});

async function written(value: unknown): Promise<{ status: number; body: string }> {
  const app = Fastify({ logger: false });
  const send = schemaJsonWriter(schema);
  app.get('/', async (_request, reply) => send(reply, value as z.output<typeof schema>));
  const response = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return { status: response.statusCode, body: response.body };
}

describe('schema JSON writer', () => {
  it('writes what JSON.stringify writes for a value of the schema', async () => {
    const value = {
      meterNumber: 'EM-1',
      lastReading: { at: '2026-01-01T00:00:00.000Z', value: 12.5 },
      channels: ['import'],
    };
    expect((await written(value)).body).toBe(JSON.stringify(value));
    const none = { meterNumber: 'EM-2', lastReading: null, channels: [] };
    expect((await written(none)).body).toBe(JSON.stringify(none));
  });

  it('never writes a property the schema does not name, and refuses one missing', async () => {
    const leaky = {
      meterNumber: 'EM-1',
      lastReading: null,
      channels: [],
      password_hash: 'x',
      location_id: 7,
    };
    const { body } = await written(leaky);
    expect(JSON.parse(body)).toEqual({ meterNumber: 'EM-1', lastReading: null, channels: [] });
    expect((await written({ lastReading: null, channels: [] })).status).toBe(500);
  });
});
