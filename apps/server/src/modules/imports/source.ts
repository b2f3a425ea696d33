import type { ImportFormat } from '@cm/contracts/admin.ts';
import type { ImportDetection } from '@cm/contracts/import-jobs.ts';
import {
  delimitedMappingSchema,
  type DelimitedMapping,
  type DelimitedMappingInput,
  type ImportPreset,
} from '@cm/contracts/import-mapping.ts';
import { HttpError } from '../../http-error.ts';
import { detectFormat } from './detect.ts';
import { presetFor } from './presets.ts';

/** How a file is to be read, as asked: everything optional, the content decides the rest. */
export interface SourceRequest {
  format?: ImportFormat | 'auto' | undefined;
  preset?: ImportPreset | undefined;
  mapping?: DelimitedMappingInput | undefined;
  meterNumber?: string | undefined;
}

/** The format to read a file with, the mapping for a delimited one, and what detection said. */
export interface ResolvedSource {
  format: ImportFormat;
  mapping: DelimitedMapping | undefined;
  detection: ImportDetection;
}

/** A mapping as the contract reads it, or 400 naming what is wrong with it. */
export function parseMapping(
  input: DelimitedMappingInput,
  meterNumber: string | undefined,
): DelimitedMapping {
  const withMeter =
    meterNumber && 'fixed' in input.meter && input.meter.fixed === ''
      ? { ...input, meter: { fixed: meterNumber } }
      : input;
  if ('fixed' in withMeter.meter && withMeter.meter.fixed === '') {
    throw new HttpError(
      400,
      'This file names no meter: give the meterNumber its readings belong to.',
      'meterNumber',
    );
  }
  const parsed = delimitedMappingSchema.safeParse(withMeter);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(
      400,
      `mapping.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'is not valid.'}`,
      'mapping',
    );
  }
  return parsed.data;
}

/**
 * Resolves how to read a file from its first bytes (`head`) and what was asked: a format, a preset
 * or a mapping given wins; otherwise the content decides (never the file's name or Content-Type).
 * A delimited file of no known layout without a mapping is read as Check Meter's CSV, whose
 * refusal names the columns it expects.
 */
export function resolveSource(head: string, request: SourceRequest): ResolvedSource {
  const detection = detectFormat(head, request.meterNumber);
  if (request.mapping) {
    return { format: 'delimited', mapping: parseMapping(request.mapping, request.meterNumber), detection };
  }
  if (request.preset) {
    const lines = head
      .replace(/^\uFEFF/, '')
      .split(/\r\n|\n|\r/)
      .slice(0, 200);
    const preset = presetFor(request.preset, lines, request.meterNumber);
    if (!preset?.mapping) {
      throw new HttpError(
        400,
        `The file does not look like ${request.preset}: its header was not found in the first lines.`,
        'preset',
      );
    }
    return {
      format: 'delimited',
      mapping: parseMapping(preset.mapping, request.meterNumber),
      detection: preset,
    };
  }
  if (request.format && request.format !== 'auto' && request.format !== 'delimited') {
    return { format: request.format, mapping: undefined, detection };
  }
  if (detection.format === 'delimited' && detection.preset && detection.mapping) {
    return { format: 'delimited', mapping: parseMapping(detection.mapping, request.meterNumber), detection };
  }
  const read = detection.format === 'delimited' ? 'csv' : detection.format;
  return { format: read, mapping: undefined, detection };
}
