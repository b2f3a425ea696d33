import fastJson from 'fast-json-stringify';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * A writer of JSON for one response schema, compiled once when the route is registered: it writes
 * the schema's properties and nothing else (a column the query selected but the contract does not
 * name never leaks), and throws when a required one is missing. For the answers asked most, where
 * the zod serializer (which validates every value on every request) costs more than the answer.
 */
export function schemaJsonWriter<T extends z.ZodType>(schema: T, plain = false) {
  // Plain (CM_DEBUG_DISABLE=schema-json): zod checks the value, JSON.stringify writes it.
  const write = plain
    ? (value: z.output<T>) => JSON.stringify(schema.parse(value))
    : fastJson(z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as object);
  return (reply: FastifyReply, value: z.output<T>): FastifyReply =>
    reply.type('application/json; charset=utf-8').send(write(value));
}
