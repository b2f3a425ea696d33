import type { ImportReport } from '@cm/contracts/admin.ts';

/** How an import went, for the report's headline. */
export type ReportTone = 'stored' | 'storedWithProblems' | 'nothingNew' | 'refused';

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
  if (report.rejectedCount > 0 || report.conflictCount > 0) return 'storedWithProblems';
  if (report.inserted === 0) return 'nothingNew';
  return 'stored';
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

/** The format a file name suggests, or null. */
export function formatFromFileName(name: string): 'csv' | 'espi' | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.csv') || lower.endsWith('.txt')) return 'csv';
  if (lower.endsWith('.xml') || lower.endsWith('.atom')) return 'espi';
  return null;
}
