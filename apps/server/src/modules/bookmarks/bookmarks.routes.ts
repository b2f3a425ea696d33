import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bookmarkUpdateBodySchema,
  bookmarkUpdateResultSchema,
  bookmarksDataSchema,
  meterNicknameBodySchema,
  meterNicknameSchema,
  searchQuerySchema,
  searchResultSchema,
} from '@cm/contracts/bookmarks.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { callerOf } from '../../plugins/authentication.ts';
import type { BookmarksService } from './bookmarks.service.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

export const bookmarksRoutes: FastifyPluginAsyncZod<{ bookmarks: BookmarksService }> = async (
  app,
  { bookmarks },
) => {
  app.get(
    '/api/bookmarks/data',
    {
      preHandler: app.requireAbility('read', 'Bookmark'),
      schema: {
        tags: ['bookmarks'],
        summary:
          'Suggestions (pages, locations and meters the caller may open, up to a limit) and the starred ones.',
        response: { 200: bookmarksDataSchema, 401: errorBodySchema },
      },
    },
    async (request) => bookmarks.data(callerOf(request)),
  );

  app.post(
    '/api/bookmarks/update',
    {
      preHandler: app.requireAbility('update', 'Bookmark'),
      schema: {
        tags: ['bookmarks'],
        summary: 'Toggle the star of one suggestion for the caller.',
        body: bookmarkUpdateBodySchema.strict(),
        response: { 200: bookmarkUpdateResultSchema, ...errors },
      },
    },
    async (request) => bookmarks.toggle(callerOf(request), request.body.id),
  );

  app.put(
    '/api/bookmarks/nickname',
    {
      preHandler: app.requireAbility('update', 'Bookmark'),
      schema: {
        tags: ['bookmarks'],
        summary:
          'Names one of the caller\'s meters for the caller alone ("My flat"); an empty nickname removes it. Another client\'s meter is answered as one that does not exist.',
        body: meterNicknameBodySchema.strict(),
        response: { 200: meterNicknameSchema, ...errors },
      },
    },
    async (request) =>
      bookmarks.nameMeter(callerOf(request), request.body.meterNumber, request.body.nickname),
  );

  app.get(
    '/api/search',
    {
      preHandler: app.requireAbility('read', 'Meter'),
      schema: {
        tags: ['bookmarks'],
        summary: "Typeahead over the caller's meters and locations: exact, prefix, then substring matches.",
        querystring: searchQuerySchema,
        response: { 200: searchResultSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => ({ results: await bookmarks.search(callerOf(request), request.query.q) }),
  );
};
