import type { ImportReport } from '@cm/contracts/admin.ts';
import { describe, expect, it } from 'vitest';
import { rejectedOverflow, reportCounts, reportMessage, reportTone } from './import-report.ts';
import { readUploadAnswer, uploadUrl } from './upload.ts';

const report: ImportReport = {
  format: 'csv',
  committed: true,
  refusal: null,
  rowsRead: 4,
  inserted: 3,
  unchanged: 0,
  corrected: 0,
  conflictCount: 0,
  conflicts: [],
  rejectedCount: 1,
  rejected: [{ line: 4, reason: 'register_kwh: "abc" is not a number.' }],
  notes: [],
};

describe('import report', () => {
  it('says how it went', () => {
    expect(reportTone(report)).toBe('storedWithProblems');
    expect(reportTone({ ...report, rejectedCount: 0, rejected: [] })).toBe('stored');
    expect(reportTone({ ...report, rejectedCount: 0, rejected: [], inserted: 0, unchanged: 4 })).toBe(
      'nothingNew',
    );
    expect(reportTone({ ...report, committed: false, refusal: 'strict' })).toBe('refused');
    // Lines refused and nothing stored is not "stored, with lines to check".
    expect(reportTone({ ...report, inserted: 0 })).toBe('nothingStored');
  });

  it('lists counts and flags the problems', () => {
    expect(reportCounts(report).map((c) => [c.key.split('.').pop(), c.value, c.isProblem])).toEqual([
      ['rowsRead', 4, false],
      ['inserted', 3, false],
      ['unchanged', 0, false],
      ['conflicts', 0, false],
      ['rejected', 1, true],
    ]);
    expect(reportCounts({ ...report, corrected: 2 }).at(-1)).toEqual({
      key: 'admin.import.count.corrected',
      value: 2,
      isProblem: false,
    });
  });

  it('words a strict refusal by its count, another refusal by its reason, a stored import by its mode', () => {
    // Issue 17.15: "Reason given by the server: Strict mode: 9 line(s) were rejected…" in every language.
    const strict = {
      ...report,
      committed: false,
      refusal: 'Strict mode: 9 lines were rejected',
      rejectedCount: 9,
    };
    expect(reportMessage(strict, true)).toEqual({ key: 'admin.import.strictRefused', values: { count: 9 } });
    const refused = { ...report, committed: false, refusal: 'The file is empty.' };
    expect(reportMessage(refused, false)).toEqual({
      key: 'admin.import.refusal',
      values: { detail: 'The file is empty.' },
    });
    expect(reportMessage(report, false).key).toBe('admin.import.partial');
    // Nothing stored: no "good lines were stored" under that headline.
    const none = { ...report, inserted: 0, rejectedCount: 4 };
    expect(reportMessage(none, false).key).toBe('admin.import.nothingStoredHint');
    expect(reportMessage(report, true).key).toBe('admin.import.atomic');
  });

  it('counts rejected lines beyond the listed ones', () => {
    expect(rejectedOverflow(report)).toBe(0);
    expect(rejectedOverflow({ ...report, rejectedCount: 1500 })).toBe(1499);
  });
});

describe('upload answer', () => {
  it('reads the job, and an error body', () => {
    expect(readUploadAnswer(201, { nonsense: true })).toEqual({
      kind: 'failed',
      failure: { status: 'PARSE_ERROR', message: null, param: null },
    });
    expect(
      readUploadAnswer(413, {
        statusCode: 413,
        error: 'Payload Too Large',
        message: 'The file is larger than 2 GiB.',
      }),
    ).toEqual({
      kind: 'failed',
      failure: { status: 413, message: 'The file is larger than 2 GiB.', param: null },
    });
    expect(uploadUrl('HDF file.csv')).toBe('/api/admin/imports/jobs?fileName=HDF%20file.csv');
  });
});
