import type { RejectedLine } from '@cm/contracts/admin.ts';
import { isImportReasonCode } from '@cm/contracts/import-reasons.ts';
import type { TFunction } from 'i18next';

/**
 * Why a line was refused, in the reader's language (issue 17.15): worded from its code and values
 * (`admin.import.reasons.<code>`, numbers formatted), else the server's English sentence (a report
 * written before codes, or a code this version does not know).
 */
export function rejectionText(problem: RejectedLine, t: TFunction): string {
  const { code, params } = problem;
  if (code === undefined || !isImportReasonCode(code)) return problem.reason;
  return t(`admin.import.reasons.${code}`, { ...params, defaultValue: problem.reason });
}
