import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests; JSON at /api/docs/json, a browsable page at /api/docs. */
export const openApi = fp(async (app: FastifyInstance) => {
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
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    uiConfig: { docExpansion: 'list' },
  });
});
