import type { Readable } from 'node:stream';
import type { ImportFormat } from '@cm/contracts/admin.ts';
import type { DelimitedMapping } from '@cm/contracts/import-mapping.ts';
import { parseBlocks } from './blocks-source.ts';
import { parseCsv } from './csv-source.ts';
import { parseDelimited } from './delimited-source.ts';
import { parseEspi, type EspiOptions } from './espi-source.ts';
import { parseMdff, type MdffOptions } from './mdff-source.ts';
import { ImportRefusal, type ParseContext, type ParsedItem } from './import-rows.ts';

/** How a file is read: its format, and a delimited file's mapping or an ESPI file's options. */
export interface ReadOptions {
  format: ImportFormat;
  mapping?: DelimitedMapping | undefined;
  espi?: EspiOptions | undefined;
  mdff?: MdffOptions | undefined;
}

/** The parser of a file (re-openable: ESPI is read in two passes), batch by batch. */
export function parserFor(
  file: { open(): Readable },
  options: ReadOptions,
  context: ParseContext,
): AsyncGenerator<ParsedItem[]> {
  if (options.format === 'csv') return parseCsv(file.open(), context);
  if (options.format === 'espi') return parseEspi(() => file.open(), context, options.espi);
  if (options.format === 'nem12' || options.format === 'nem13')
    return parseMdff(file.open(), context, options.mdff);
  if (options.format === 'blocks') return parseBlocks(file.open(), context);
  if (!options.mapping) throw new ImportRefusal('A delimited file needs a mapping (or a preset).');
  return parseDelimited(file.open(), options.mapping, context);
}
