import type { ImportReport } from '@cm/contracts/admin.ts';
import { describe, expect, it } from 'vitest';
import { formatFromFileName, rejectedOverflow, reportCounts, reportTone } from './import-report.ts';
import { importUrl, readImportAnswer } from './upload.ts';

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

  it('counts rejected lines beyond the listed ones', () => {
    expect(rejectedOverflow(report)).toBe(0);
    expect(rejectedOverflow({ ...report, rejectedCount: 1500 })).toBe(1499);
  });

  it('guesses the format from the file name', () => {
    expect(formatFromFileName('Readings.CSV')).toBe('csv');
    expect(formatFromFileName('green-button.xml')).toBe('espi');
    expect(formatFromFileName('data.bin')).toBeNull();
  });
});

describe('upload answer', () => {
  it('reads a report, a refusal with its report, and an error body', () => {
    expect(readImportAnswer(200, report)).toEqual({ kind: 'report', report });
    const refused = { ...report, committed: false, refusal: 'strict: line 4 was rejected' };
    expect(
      readImportAnswer(422, {
        statusCode: 422,
        error: 'Unprocessable Entity',
        message: 'Nothing stored',
        report: refused,
      }),
    ).toEqual({
      kind: 'refused',
      message: 'Nothing stored',
      report: refused,
    });
    expect(
      readImportAnswer(400, {
        statusCode: 400,
        error: 'Bad Request',
        message: 'timeZone: bad',
        param: 'timeZone',
      }),
    ).toEqual({
      kind: 'failed',
      failure: { status: 400, message: 'timeZone: bad', param: 'timeZone' },
    });
    expect(readImportAnswer(200, { nonsense: true })).toEqual({
      kind: 'failed',
      failure: { status: 'PARSE_ERROR', message: null, param: null },
    });
  });

  it('builds the query without empty options', () => {
    expect(importUrl({ format: 'csv', strict: false })).toBe('/api/admin/imports?format=csv&strict=false');
    expect(importUrl({ format: 'espi', strict: true, timeZone: 'Europe/Paris', meterNumber: ' EM 1 ' })).toBe(
      '/api/admin/imports?format=espi&strict=true&timeZone=Europe%2FParis&meterNumber=EM+1',
    );
  });
});
