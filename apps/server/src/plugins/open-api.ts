import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Adds to a route's documented answers the errors any route can give before or around its handler,
 * so that the document lists every status a client can get (found by the API fuzz tests): 401/403
 * from the API key and token checks, 503 when the server is too busy or the database is down, 400
 * for bad input, 413/415 for bodies that are too large or not JSON, 414 for an over-long path
 * parameter. A route's own schema for a status wins. Routes without a response schema are left
 * alone (their 200 would disappear from the document).
 */
export function documentCommonErrors(route: RouteOptions): void {
  const isApi = route.url.startsWith('/api/') && !route.url.startsWith('/api/docs');
  // The ESPI resource API (Connect My Data) answers the same errors, its token for the API key.
  if (!isApi && !route.url.startsWith('/espi/')) return;
  const response = route.schema?.response as Record<string, unknown> | undefined;
  if (!response) return;
  const add = (status: number) => {
    if (!(status in response)) response[status] = errorBodySchema;
  };
  const methods = [route.method].flat();
  const takesBody = methods.some((method) => BODY_METHODS.has(method));
  add(503);
  if (route.url !== '/api/health') {
    add(401);
    add(403);
  }
  if (takesBody || route.schema?.querystring || route.schema?.params || route.url.includes(':')) add(400);
  if (takesBody) {
    add(413);
    add(415);
  }
  if (route.url.includes(':')) add(414);
}

interface BodyDocument {
  required?: boolean;
  content?: Record<string, { schema?: { anyOf?: Array<{ type?: string }> } }>;
}
type OpenApiDocument = ReturnType<typeof jsonSchemaTransformObject>;

/**
 * A body whose schema accepts null (zod `.nullish()`) may be left out: Fastify then validates
 * `undefined`, which the schema accepts too. @fastify/swagger marks every body required; this
 * marks those optional, as their routes take them.
 */
function documentOptionalBodies(document: OpenApiDocument): OpenApiDocument {
  const paths = (document.paths ?? {}) as Record<string, Record<string, { requestBody?: BodyDocument }>>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      if (operation.requestBody && schema?.anyOf?.some((variant) => variant.type === 'null'))
        operation.requestBody.required = false;
    }
  }
  return document;
}

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests; JSON at /api/docs/json, a browsable page at /api/docs. */
export const openApi = fp(async (app: FastifyInstance) => {
  // Before swagger's own hook, so that the document sees the added answers.
  app.addHook('onRoute', documentCommonErrors);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Check Meter API',
        version: '1.0.0',
        description:
          'Electric meter information and readings. Every call carries the API key header; calls for a person carry a bearer token from /api/auth/login.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-CheckMeter' },
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
      security: [{ apiKey: [] }],
    },
    transform: jsonSchemaTransform,
    // Schemas used in several places become components, and their $refs resolve.
    transformObject: (input) => documentOptionalBodies(jsonSchemaTransformObject(input)),
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    uiConfig: { docExpansion: 'list' },
  });
});
