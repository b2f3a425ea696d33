import type { Readable } from 'node:stream';
import { isValidTimeZone } from '@cm/contracts/zoned-time.ts';
import { z } from 'zod';
import { badRequest } from '../../http-error.ts';
import type { ImportJobsService } from './import-jobs.service.ts';
import type { ImportsService } from './imports.service.ts';

// What the import routes of every stage share (imports.routes.ts composes them).

/** What the import routes are given by app.ts. */
export interface ImportsRoutesOptions {
  imports: ImportsService;
  jobs: ImportJobsService;
  /** CM_IMPORT_MAX_BYTES: the largest file taken. */
  maxBytes: number;
  /** Where uploads are spooled as they arrive. */
  spoolDir: string;
}

const CSV_TYPES = ['text/csv', 'application/csv'];
const XML_TYPES = ['application/atom+xml', 'application/xml', 'text/xml'];
/** The Content-Types a file is documented to come with (any is taken: the content tells). */
export const FILE_TYPES = [...CSV_TYPES, ...XML_TYPES, 'text/plain', 'application/octet-stream'];

export const fileBody = z.unknown().describe('The readings file, as it came from the meter or the utility.');

export const jobParams = z.object({ id: z.string().uuid('id must be an import job id.') });

export function refuseUnknownZone(timeZone: string | undefined) {
  if (timeZone !== undefined && !isValidTimeZone(timeZone))
    throw badRequest(`timeZone: "${timeZone}" is not an IANA time zone such as Europe/Berlin.`, 'timeZone');
}

export function isReadable(body: unknown): body is Readable {
  return typeof body === 'object' && body !== null && 'pipe' in body && Symbol.asyncIterator in body;
}
