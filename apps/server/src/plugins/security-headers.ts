import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The page's Content-Security-Policy: CM's own scripts, styles, images and API only; never framed. */
const contentSecurityPolicy = {
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // Mantine writes CSS variables in style attributes and <style> tags.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    upgradeInsecureRequests: null,
  },
};

/**
 * helmet's headers on every answer (CSP, nosniff, frame and referrer policies …), and HSTS on
 * answers to HTTPS requests only: over plain HTTP it means nothing.
 */
export const securityHeaders = fp(async (app: FastifyInstance) => {
  await app.register(helmet, { contentSecurityPolicy, strictTransportSecurity: false });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https')
      reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  });
});
