import type { ImportDetection } from '@cm/contracts/import-jobs.ts';
import type { ImportPreset } from '@cm/contracts/import-mapping.ts';
import { splitCsvLine } from './csv-source.ts';

// The layouts utilities export, as mappings (FORMATS.md's notes, the real files in
// fixtures/real). Each is built from the file's first lines, which tell its variant apart.

const headerOf = (lines: readonly string[], test: (fields: string[]) => boolean) => {
  const index = lines.findIndex((line) =>
    test(splitCsvLine(line.replace(/^\uFEFF/, '')).map((f) => f.trim().toLowerCase())),
  );
  return index < 0 ? undefined : { index, fields: splitCsvLine(lines[index] ?? '').map((f) => f.trim()) };
};

/** ESB Networks HDF: MPRN, serial, value, read type (import/export, kWh or kW), Irish local interval end (DD-MM-YYYY HH:MM), newest first. */
function esbHdf(lines: readonly string[], _meterNumber: string | undefined): ImportDetection | undefined {
  const header = headerOf(
    lines,
    (f) => f.includes('read value') && f.includes('read type') && f.includes('read date and end time'),
  );
  if (!header) return undefined;
  const firstRow = lines[header.index + 1] ?? '';
  const isPower = /\(kW\)/.test(firstRow);
  return {
    format: 'delimited',
    preset: 'esb-hdf',
    reason: `ESB Networks HDF: columns Read Value, Read Type, Read Date and End Time; ${isPower ? 'average kW per half hour (× 0.5 h)' : 'kWh per half hour'}; Irish local interval ends, newest first.`,
    needs: [],
    mapping: {
      delimiter: ',',
      decimal: '.',
      header: true,
      time: { column: 'Read Date and End Time', layout: 'dmy', stamp: 'end' },
      timeZone: 'Europe/Dublin',
      intervalMinutes: 30,
      value: { column: 'Read Value', unit: isPower ? 'kW' : 'kWh', kind: 'interval' },
      // A meterNumber given names the file's one MPRN (a second is refused, naming them).
      meter: { column: 0 },
      channel: { column: 'Read Type', import: ['Import'], export: ['Export'] },
      quality: { column: 'Read Type', estimated: ['Estimate'], substituted: [] },
    },
  };
}

/** US utilities' Green Button CSV: a metadata block, then TYPE, DATE, START TIME, END TIME (its last minute), USAGE… */
function greenButtonCsv(
  lines: readonly string[],
  meterNumber: string | undefined,
): ImportDetection | undefined {
  const header = headerOf(lines, (f) => f[0] === 'type' && f.includes('date') && f.includes('start time'));
  if (!header) return undefined;
  const usage = header.fields.find((field) => /^usage/i.test(field)) ?? 'USAGE';
  const units = header.fields.find((field) => /^units$/i.test(field));
  const firstRow = splitCsvLine(lines[header.index + 1] ?? '');
  const unitText = units
    ? (firstRow[header.fields.indexOf(units)] ?? '').trim()
    : (/\((\w+)\)/.exec(usage)?.[1] ?? 'kWh');
  const unit = unitText === 'Wh' || unitText === 'MWh' ? unitText : 'kWh';
  const date = (firstRow[header.fields.findIndex((f) => /^date$/i.test(f))] ?? '').trim();
  return {
    format: 'delimited',
    preset: 'green-button-csv',
    reason: `Green Button CSV (US utility download): ${header.index} metadata line(s), then TYPE, DATE, START TIME, END TIME, ${usage}; local times, end written as the interval's last minute.`,
    needs: meterNumber ? [] : ['meterNumber'],
    mapping: {
      delimiter: ',',
      decimal: '.',
      header: true,
      skipLines: 0,
      time: {
        column: 'DATE',
        timeColumn: 'START TIME',
        endColumn: 'END TIME',
        endInclusiveMinute: true,
        layout: /^\d{4}-/.test(date) ? 'iso' : 'mdy',
        stamp: 'start',
      },
      value: { column: usage, unit, kind: 'interval' },
      meter: { fixed: meterNumber ?? '' },
      channel: { fixed: 'import' },
      ...(header.fields.some((f) => /^notes$/i.test(f))
        ? { quality: { column: 'NOTES', estimated: ['estimated'], substituted: [] } }
        : {}),
      only: { column: 'TYPE', contains: ['Electric'] },
    },
  };
}

/** Octopus Energy: "Consumption (kWh), Start, End" with ISO times carrying the UK offset. */
function octopus(lines: readonly string[], meterNumber: string | undefined): ImportDetection | undefined {
  const header = headerOf(
    lines,
    (f) => f[0]?.startsWith('consumption') === true && f.includes('start') && f.includes('end'),
  );
  if (!header) return undefined;
  const consumption = header.fields[0] ?? 'Consumption (kWh)';
  return {
    format: 'delimited',
    preset: 'octopus',
    reason: 'Octopus Energy download: Consumption (kWh), Start, End with UK offsets.',
    needs: meterNumber ? [] : ['meterNumber'],
    mapping: {
      delimiter: ',',
      decimal: '.',
      header: true,
      time: { column: 'Start', endColumn: 'End', layout: 'iso', stamp: 'start' },
      value: { column: consumption, unit: 'kWh', kind: 'interval' },
      meter: { fixed: meterNumber ?? '' },
      channel: { fixed: 'import' },
    },
  };
}

/** Low Carbon London: LCLid, tstp (UTC half-hour starts), energy(kWh/hh), Null where missing. */
function lcl(lines: readonly string[], _meterNumber: string | undefined): ImportDetection | undefined {
  const header = headerOf(lines, (f) => f[0] === 'lclid');
  if (!header) return undefined;
  const time = header.fields.find((f) => /^(tstp|datetime)$/i.test(f)) ?? 'tstp';
  const value = header.fields.find((f) => /kwh/i.test(f)) ?? 'energy(kWh/hh)';
  return {
    format: 'delimited',
    preset: 'lcl',
    reason: `Low Carbon London: LCLid, ${time} (half-hour starts, UTC), ${value}; Null is a missing half hour.`,
    needs: [],
    mapping: {
      delimiter: ',',
      decimal: '.',
      header: true,
      time: { column: time, layout: 'iso', stamp: 'start' },
      timeZone: 'UTC',
      intervalMinutes: 30,
      value: { column: value, unit: 'kWh', kind: 'interval' },
      missingValues: ['Null'],
      // A meterNumber given names the file's one household (several are refused, naming them).
      meter: { column: 'LCLid' },
      channel: { fixed: 'import' },
    },
  };
}

const PRESETS: Record<
  ImportPreset,
  (lines: readonly string[], meterNumber: string | undefined) => ImportDetection | undefined
> = {
  'esb-hdf': esbHdf,
  'green-button-csv': greenButtonCsv,
  octopus,
  lcl,
};

/** The preset `name` for a file beginning with `lines` (a variant may depend on the first rows). */
export function presetFor(name: ImportPreset, lines: readonly string[], meterNumber: string | undefined) {
  return PRESETS[name](lines, meterNumber);
}

/** The preset whose header the file's first lines hold, if any. */
export function detectPreset(
  lines: readonly string[],
  meterNumber: string | undefined,
): ImportDetection | undefined {
  for (const preset of Object.values(PRESETS)) {
    const found = preset(lines, meterNumber);
    if (found) return found;
  }
  return undefined;
}
