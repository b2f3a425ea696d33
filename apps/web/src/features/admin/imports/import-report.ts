import type { ImportReport } from '@cm/contracts/admin.ts';

/** How an import went, for the report's headline. */
export type ReportTone = 'stored' | 'storedWithProblems' | 'nothingNew' | 'nothingStored' | 'refused';

/** One count of the report: an i18n key and a number. */
export interface ReportCount {
  key: string;
  value: number;
  /** Counts that need attention are highlighted. */
  isProblem: boolean;
}

/** The headline of a report. */
export function reportTone(report: ImportReport): ReportTone {
  if (!report.committed) return 'refused';
  const hasProblems = report.rejectedCount > 0 || report.conflictCount > 0;
  // The headline matches the numbers: "stored" only when something was.
  if (report.inserted + report.corrected === 0) return hasProblems ? 'nothingStored' : 'nothingNew';
  return hasProblems ? 'storedWithProblems' : 'stored';
}

/**
 * The sentence under the headline: a strict import refused for its lines says how many (they are
 * listed below), another refusal gives its reason, a stored import how it was stored.
 */
export function reportMessage(
  report: ImportReport,
  isStrict: boolean,
): { key: string; values: Record<string, string | number> } {
  if (!report.committed && isStrict && report.rejectedCount > 0)
    return { key: 'admin.import.strictRefused', values: { count: report.rejectedCount } };
  if (report.refusal) return { key: 'admin.import.refusal', values: { detail: report.refusal } };
  if (reportTone(report) === 'nothingStored') return { key: 'admin.import.nothingStoredHint', values: {} };
  return { key: isStrict ? 'admin.import.atomic' : 'admin.import.partial', values: {} };
}

/** The counts, in reading order. Corrections only when there were some. */
export function reportCounts(report: ImportReport): ReportCount[] {
  const counts: ReportCount[] = [
    { key: 'admin.import.count.rowsRead', value: report.rowsRead, isProblem: false },
    { key: 'admin.import.count.inserted', value: report.inserted, isProblem: false },
    { key: 'admin.import.count.unchanged', value: report.unchanged, isProblem: false },
    { key: 'admin.import.count.conflicts', value: report.conflictCount, isProblem: report.conflictCount > 0 },
    { key: 'admin.import.count.rejected', value: report.rejectedCount, isProblem: report.rejectedCount > 0 },
  ];
  if (report.corrected > 0)
    counts.push({ key: 'admin.import.count.corrected', value: report.corrected, isProblem: false });
  return counts;
}

/** How many rejected lines the report lists one by one, and how many more there were. */
export function rejectedOverflow(report: ImportReport): number {
  return Math.max(0, report.rejectedCount - report.rejected.length);
}
