import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminUserSchema,
  createUserBodySchema,
  idParamsSchema,
  resetPasswordBodySchema,
  resetPasswordResultSchema,
  updateUserBodySchema,
  userListQuerySchema,
  userListSchema,
} from '@cm/contracts/admin.ts';
import { actorOf, adminOnly, adminErrors as errors } from '../../plugins/admin-only.ts';
import type { AdminUsersService } from './users.service.ts';

const tags = ['admin'];

/** Users: administrators only (issue 6). */
export const usersRoutes: FastifyPluginAsyncZod<{ users: AdminUsersService }> = async (app, { users }) => {
  adminOnly(app);
  app.get(
    '/api/admin/users',
    {
      schema: {
        tags,
        summary: 'Users: search in email and name, filter by role and disabled, paginated.',
        querystring: userListQuerySchema,
        response: { 200: userListSchema, ...errors },
      },
    },
    async (request) => users.list(request.query),
  );
  app.get(
    '/api/admin/users/:id',
    {
      schema: {
        tags,
        summary: 'One user.',
        params: idParamsSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => users.get(request.params.id),
  );
  app.post(
    '/api/admin/users',
    {
      schema: {
        tags,
        summary: 'Create a user (locationIds only for clients).',
        body: createUserBodySchema.strict(),
        response: { 201: adminUserSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await users.create(actorOf(request), request.body)),
  );
  app.patch(
    '/api/admin/users/:id',
    {
      schema: {
        tags,
        summary: 'Edit a user; the last enabled administrator cannot be demoted (409).',
        params: idParamsSchema,
        body: updateUserBodySchema.strict(),
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => users.update(actorOf(request), request.params.id, request.body),
  );
  app.post(
    '/api/admin/users/:id/disable',
    {
      schema: {
        tags,
        summary:
          'Disable a user and end its sessions; the last enabled administrator cannot be disabled (409).',
        params: idParamsSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => users.setDisabled(actorOf(request), request.params.id, true),
  );
  app.post(
    '/api/admin/users/:id/enable',
    {
      schema: {
        tags,
        summary: 'Enable a user.',
        params: idParamsSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => users.setDisabled(actorOf(request), request.params.id, false),
  );
  app.post(
    '/api/admin/users/:id/reset-password',
    {
      schema: {
        tags,
        summary:
          'Set a temporary password (generated when none is given) the user must change; ends its sessions.',
        params: idParamsSchema,
        body: resetPasswordBodySchema.strict().nullish(),
        response: { 200: resetPasswordResultSchema, ...errors },
      },
    },
    async (request) =>
      users.resetPassword(actorOf(request), request.params.id, request.body?.temporaryPassword),
  );
};
