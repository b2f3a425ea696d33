import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminOnly } from '../../plugins/admin-only.ts';
import { importJobsRoutes } from './import-jobs.routes.ts';
import { importPreviewRoutes } from './import-preview.routes.ts';
import { importRunRoutes } from './import-run.routes.ts';
import type { ImportsRoutesOptions } from './imports-http.ts';
import { oneShotImportRoutes } from './imports-one-shot.routes.ts';
import { removeLeftoverUploads } from './upload-spool.ts';

/**
 * The import routes, one file per stage: a file at once (imports-one-shot), uploaded as a job and
 * followed (import-jobs), previewed with its mapping (import-preview), then run and reported on
 * (import-run). Administrators only; the stages share the body parser set here.
 */
export const importsRoutes: FastifyPluginAsyncZod<ImportsRoutesOptions> = async (app, options) => {
  adminOnly(app);
  await removeLeftoverUploads(options.spoolDir);
  await options.imports.cleanUp();
  // The body stays a stream: a file is spooled as it arrives. Fastify's body limit applies to
  // bodies it buffers, not to this one: maxBytes is counted here instead (limitUpload). Any
  // Content-Type but JSON is taken (or none): the content tells what the file is.
  app.addContentTypeParser(['text/plain', '*'], (_request, payload, done) => done(null, payload));
  await app.register(oneShotImportRoutes, options);
  await app.register(importJobsRoutes, options);
  await app.register(importPreviewRoutes, options);
  await app.register(importRunRoutes, options);
};
