import type { TFunction } from 'i18next';
import type { Granularity } from '@cm/contracts/check.ts';
import { saveFile } from '@/lib/save-file.ts';
import { buildCsv, csvFilename, type CsvBlock, type CsvCharge, type CsvFormat } from './csv.ts';

/** What to export: exactly the rows on screen. */
export interface ExportRequest {
  blocks: CsvBlock[];
  /** The bills' demand and capacity charges, a line each. */
  charges: CsvCharge[];
  granularity: Granularity;
  timeZone: string;
  unit: string;
  /** The bill's currency when the location has a tariff. */
  currency: string | null;
  subject: string;
  from: string;
  to: string;
  format: CsvFormat;
}

/** Builds the CSV with translated headers and hands it to the browser as a download. Loaded on demand. */
export function downloadCsv(request: ExportRequest, t: TFunction): string {
  const text = buildCsv({
    blocks: request.blocks,
    charges: request.charges,
    granularity: request.granularity,
    timeZone: request.timeZone,
    format: request.format,
    headers: {
      meterInd: t('check.csv.meterInd'),
      meter: t('check.csv.meter'),
      start: t('check.csv.start'),
      end: t('check.csv.end'),
      type: t('check.csv.type'),
      consumption: t('check.csv.consumption', { unit: request.unit }),
      imported: t('check.csv.imported', { unit: request.unit }),
      exported: t('check.csv.exported', { unit: request.unit }),
      net: t('check.csv.net', { unit: request.unit }),
      cost: t('check.csv.cost', { currency: request.currency ?? '' }),
      demand: t(request.granularity === 'raw' ? 'check.csv.demand' : 'check.csv.peakDemand'),
      demandAt: t('check.csv.peakStart'),
      demandAtLeast: t('check.csv.peakAtLeast'),
      register: t('check.csv.register'),
      missing: t('check.csv.missing'),
      estimated: t('check.csv.estimated'),
      substituted: t('check.csv.substituted'),
      corrected: t('check.csv.corrected'),
      hours: t('check.csv.hours'),
    },
    kinds: {
      interval: t('check.csv.kind.interval'),
      gap: t('check.csv.kind.gap'),
      period: t('check.csv.kind.period'),
      demandCharge: t('check.csv.kind.demandCharge'),
      capacityCharge: t('check.csv.kind.capacityCharge'),
    },
  });
  const filename = csvFilename(request.subject, request.from, request.to, request.granularity);
  saveFile(new Blob([text], { type: 'text/csv;charset=utf-8' }), filename);
  return filename;
}
