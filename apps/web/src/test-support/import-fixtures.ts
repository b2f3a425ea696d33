import type { ImportReport } from '@cm/contracts/admin.ts';
import type { ImportPreview } from '@cm/contracts/import-jobs.ts';

/** A committed import of 96 readings, nothing refused: page tests spread it and change what they test. */
export const storedReport: ImportReport = {
  format: 'csv',
  committed: true,
  refusal: null,
  rowsRead: 96,
  inserted: 96,
  unchanged: 0,
  corrected: 0,
  conflictCount: 0,
  conflicts: [],
  rejectedCount: 0,
  rejected: [],
  notes: [],
};

/** The preview of a Check Meter CSV of 96 readings: page tests spread it and change what they test. */
export const csvPreview: ImportPreview = {
  format: 'csv',
  preset: null,
  reason: 'Check Meter CSV header',
  mapping: null,
  refusal: null,
  rowsRead: 96,
  readings: 96,
  rejectedCount: 0,
  first: [],
  last: [],
  meters: [],
  days: [],
  notes: [],
  problems: [],
};
