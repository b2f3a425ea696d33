import { dispositionName, downloadFile } from '@/lib/download-file.ts';

/** Export options, named as the API names them (From/To: local days at the meter's location). */
export interface ExportOptions {
  meterNumber: string;
  From: string;
  To: string;
  format: 'csv' | 'espi';
}

/** The export URL. */
export function exportUrl(options: ExportOptions): string {
  const params = new URLSearchParams({
    meterNumber: options.meterNumber.trim(),
    From: options.From,
    To: options.To,
    format: options.format,
  });
  return `/api/admin/exports/readings?${params.toString()}`;
}

/** The file name the server suggests (Content-Disposition), else one built from the options. */
export function downloadName(disposition: string | null, options: ExportOptions): string {
  const named = dispositionName(disposition);
  if (named !== null) return named;
  const safe = options.meterNumber.trim().replace(/[^\w.-]+/g, '_');
  return `${safe}_${options.From}_${options.To}.${options.format === 'csv' ? 'csv' : 'xml'}`;
}

/** Downloads an export (its name from the server, else from the options). */
export function downloadExport(options: ExportOptions, signal: AbortSignal) {
  return downloadFile(exportUrl(options), '', signal, (disposition) => downloadName(disposition, options));
}
