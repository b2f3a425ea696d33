import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';

// For tests: the ESPI v3.3 schema (fixtures/real/espi-xsd, with its SOURCE.md) and a validator.

const XSD_DIR = path.resolve(import.meta.dirname, '../../../../../fixtures/real/espi-xsd');
const W3C_XML_XSD = 'https://www.w3.org/2001/03/xml.xsd';

/**
 * Validates against the ESPI v3.3 schema with libxml2 (compiled to WebAssembly: no system tool),
 * offline: atom.xsd's import of the W3C xml.xsd from the web points at a minimal local copy
 * (xml:lang and xml:base only). Answers the errors, empty when valid.
 */
export async function validateEspi(xml: string): Promise<string> {
  const result = await validateXML({
    xml: [{ fileName: 'export.xml', contents: xml }],
    schema: [readFileSync(path.join(XSD_DIR, 'usage.xsd'), 'utf8')],
    preload: [
      {
        fileName: 'atom.xsd',
        contents: readFileSync(path.join(XSD_DIR, 'atom.xsd'), 'utf8').replace(W3C_XML_XSD, 'xml.xsd'),
      },
      {
        fileName: 'xml.xsd',
        contents: `<?xml version="1.0"?><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/XML/1998/namespace"><xs:attribute name="lang" type="xs:language"/><xs:attribute name="base" type="xs:anyURI"/></xs:schema>`,
      },
    ],
  });
  return result.valid ? '' : result.rawOutput;
}
