import { type DelimitedMapping, type ImportPreset, importPresets } from '@cm/contracts/import-mapping.ts';
import type { ImportJob, ImportSource, StartImportBody } from '@cm/contracts/import-jobs.ts';
import { useMemo, useState } from 'react';
import { parseNmiMap } from './nmi-map.ts';

/** The preset choice that lets the server detect the format. */
export const AUTO = 'auto';

const isPreset = (value: string): value is ImportPreset => importPresets.some((name) => name === value);

/**
 * How an uploaded file is to be read, as the administrator sets it: a preset (or a saved or
 * edited column mapping), a meter number, a time zone, an NMI map, and how strict the import is.
 * `source` is what the preview and the start send; it starts from what the upload detected.
 */
export function useImportOptions(uploaded: ImportJob) {
  const [preset, setPreset] = useState<string>(uploaded.detection.preset ?? AUTO);
  const [mapping, setMapping] = useState<DelimitedMapping | null>(null);
  const [meterNumber, setMeterNumber] = useState('');
  const [timeZone, setTimeZone] = useState<string | null>(null);
  const [nmisText, setNmisText] = useState('');
  const [isStrict, setIsStrict] = useState(false);
  const [corrections, setCorrections] = useState(false);
  const [saveAs, setSaveAs] = useState('');

  const source: ImportSource = useMemo(() => {
    const nmis = parseNmiMap(nmisText);
    return {
      ...(isPreset(preset) && !mapping ? { preset } : {}),
      ...(mapping ? { mapping } : {}),
      ...(meterNumber.trim() ? { meterNumber: meterNumber.trim() } : {}),
      ...(timeZone ? { timeZone } : {}),
      ...(nmis ? { nmis } : {}),
    };
  }, [preset, mapping, meterNumber, timeZone, nmisText]);

  /** What the start sends: the source, and a name to save the mapping or NMI map under. */
  const startBody = (): StartImportBody => ({
    ...source,
    strict: isStrict,
    corrections,
    ...(saveAs.trim() && (mapping || source.nmis) ? { saveMappingAs: saveAs.trim() } : {}),
  });

  return {
    values: { preset, mapping, meterNumber, timeZone, nmisText, isStrict, corrections, saveAs },
    set: {
      preset: setPreset,
      mapping: setMapping,
      meterNumber: setMeterNumber,
      timeZone: setTimeZone,
      nmisText: setNmisText,
      isStrict: setIsStrict,
      corrections: setCorrections,
      saveAs: setSaveAs,
    },
    source,
    startBody,
  };
}

export type ImportOptions = ReturnType<typeof useImportOptions>;
