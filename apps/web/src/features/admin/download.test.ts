import { describe, expect, it } from 'vitest';
import { downloadName, exportUrl } from './download.ts';

const options = { meterNumber: 'EM 10001/a', From: '2026-01-01', To: '2026-01-31', format: 'csv' as const };

describe('export download', () => {
  it('uses the server file name when it sends one', () => {
    expect(downloadName('attachment; filename="EM-1_2026-01.csv"', options)).toBe('EM-1_2026-01.csv');
    expect(downloadName("attachment; filename*=UTF-8''M%C3%A9ter.xml", options)).toBe('Méter.xml');
  });

  it('builds a safe name otherwise', () => {
    expect(downloadName(null, options)).toBe('EM_10001_a_2026-01-01_2026-01-31.csv');
    expect(downloadName(null, { ...options, format: 'espi' })).toMatch(/\.xml$/);
  });

  it('names the parameters as the API does', () => {
    expect(exportUrl(options)).toBe(
      '/api/admin/exports/readings?meterNumber=EM+10001%2Fa&From=2026-01-01&To=2026-01-31&format=csv',
    );
  });
});
