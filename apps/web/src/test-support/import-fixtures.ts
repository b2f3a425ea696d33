import type { ImportReport } from '@cm/contracts/admin.ts';

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
