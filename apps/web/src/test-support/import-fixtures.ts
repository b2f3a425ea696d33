import type { ImportReport } from '@cm/contracts/admin.ts';
import type { ImportJob, ImportPreview } from '@cm/contracts/import-jobs.ts';

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

/** depot.csv, a Check Meter CSV just uploaded as job-1: page tests spread it into later states. */
export const uploadedJob: ImportJob = {
  id: 'job-1',
  status: 'uploaded',
  fileName: 'depot.csv',
  bytes: 2048,
  createdAt: '2026-11-27T07:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  detection: { format: 'csv', preset: null, reason: 'Check Meter CSV header', mapping: null, needs: [] },
  source: null,
  progress: { phase: null, rowsRead: 0, bytesRead: 0, percent: 0, secondsLeft: null },
  report: null,
  error: null,
  cancelRequested: false,
};
