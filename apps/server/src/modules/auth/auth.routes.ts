import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  currentUserResultSchema,
  languageBodySchema,
  loginBodySchema,
  refreshResultSchema,
  userRecordSchema,
} from '@cm/contracts/auth.ts';
import { changePasswordBodySchema, MIN_PASSWORD_LENGTH } from '@cm/contracts/admin.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { callerOf } from '../../plugins/authentication.ts';
import type { AuthService } from './auth.service.ts';

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/api/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password; answers the stored user record (spec §3).',
        body: loginBodySchema.strict(),
        response: {
          200: userRecordSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => auth.login(request.body.email, request.body.password, request.ip),
  );

  app.get(
    '/api/auth/me',
    {
      preHandler: app.requireSession,
      schema: {
        tags: ['auth'],
        summary: 'The current user (spec §4: result.currentUser).',
        response: { 200: currentUserResultSchema, 401: errorBodySchema },
      },
    },
    async (request) => auth.currentUser(callerOf(request)),
  );

  app.put(
    '/api/auth/language',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['auth'],
        summary: 'The language the caller reads CM in (en, fr, de, pt): alert e-mails are written in it.',
        body: languageBodySchema.strict(),
        response: { 204: z.null(), 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      await auth.setLanguage(callerOf(request), request.body.language);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/auth/refresh',
    {
      preHandler: app.requireSession,
      schema: {
        tags: ['auth'],
        summary: 'Renew the access token of a live session.',
        response: { 200: refreshResultSchema, 401: errorBodySchema },
      },
    },
    async (request) => auth.refresh(callerOf(request)),
  );

  app.post(
    '/api/auth/logout',
    {
      preHandler: app.requireSession,
      schema: {
        tags: ['auth'],
        summary: 'End the session; its tokens stop working at once.',
        response: { 204: z.null(), 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      await auth.logout(callerOf(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/auth/change-password',
    {
      preHandler: app.requireSession,
      schema: {
        tags: ['auth'],
        summary: `Change your password (at least ${MIN_PASSWORD_LENGTH} characters): clears the must-change flag set by an administrator's reset (until then every other call but me, refresh and logout answers 403) and signs out your other sessions. Wrong current passwords count with the failed sign-ins (429 once blocked).`,
        body: changePasswordBodySchema.strict(),
        response: { 204: z.null(), 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await auth.changePassword(
        callerOf(request),
        request.ip,
        request.body.currentPassword,
        request.body.newPassword,
      );
      return reply.status(204).send(null);
    },
  );
};
