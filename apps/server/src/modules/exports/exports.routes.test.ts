import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '@cm/contracts/admin.ts';
import { Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import { insertLocation, insertMeter, insertReadings, regularReadings } from '../../test/factories.ts';

const XSD_DIR = path.resolve(import.meta.dirname, '../../../../../fixtures/real/espi-xsd');
const W3C_XML_XSD = 'https://www.w3.org/2001/03/xml.xsd';

/**
 * Validates against the ESPI v3.3 schema with libxml2 (compiled to WebAssembly: no system tool),
 * offline: atom.xsd's import of the W3C xml.xsd from the web points at a minimal local copy
 * (xml:lang and xml:base only). Answers the errors, empty when valid.
 */
async function validateEspi(xml: string): Promise<string> {
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

let t: TestApp;
let admin: string;
let client: string;

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  await insertUser(t.db, { email: 'client@test.cm', password: 'Client!pass1' });
  const berlin = await insertLocation(t.db, 'Export site', 'Europe/Berlin');
  const meter = await insertMeter(t.db, {
    meterNumber: 'EXP-1',
    locationId: berlin,
    meterInd: 1,
    installedAt: new Date('2026-01-01T00:00:00Z'),
    multiplier: 2,
  });
  await insertMeter(t.db, {
    meterNumber: 'EXP-2',
    locationId: berlin,
    meterInd: 2,
    installedAt: new Date('2026-01-01T00:00:00Z'),
  });
  // Across the spring-forward night in Berlin (29 March 2026, 02:00 → 03:00), hourly, +1.5 kWh each.
  await insertReadings(
    t.db,
    meter,
    regularReadings(
      Date.parse('2026-03-28T23:00:00Z'),
      Date.parse('2026-03-29T22:00:00Z'),
      3_600_000,
      1_000_000,
      () => 1_500,
    ),
  );
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
  client = (await t.login('client@test.cm', 'Client!pass1')).token;
});
afterAll(() => t.close());

const exportUrl = (params: Record<string, string>) =>
  `/api/admin/exports/readings?${new URLSearchParams(params).toString()}`;

describe('export readings', () => {
  it('streams CSV with local times and offsets, which imports back unchanged', async () => {
    const response = await t.call(
      'GET',
      exportUrl({ meterNumber: 'EXP-1', From: '2026-03-29', To: '2026-03-29' }),
      { token: admin },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="EXP-1-readings.csv"');
    expect(response.body.endsWith('\r\n')).toBe(true);
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe('meter_number,timestamp,register_kwh,quality');
    // 29 March in Berlin has 23 hours: 24 readings from local midnight to the next midnight, inclusive.
    expect(lines).toHaveLength(1 + 24);
    expect(lines.slice(1, 5)).toEqual([
      'EXP-1,2026-03-29T00:00:00+01:00,1000.000,0',
      'EXP-1,2026-03-29T01:00:00+01:00,1001.500,0',
      'EXP-1,2026-03-29T03:00:00+02:00,1003.000,0',
      'EXP-1,2026-03-29T04:00:00+02:00,1004.500,0',
    ]);
    expect(lines.at(-1)).toBe('EXP-1,2026-03-30T00:00:00+02:00,1034.500,0');
    const back = await t.call('POST', '/api/admin/imports', {
      token: admin,
      body: response.body,
      headers: { 'content-type': 'text/csv' },
    });
    expect(back.json<ImportReport>()).toMatchObject({
      committed: true,
      inserted: 0,
      unchanged: 24,
      conflictCount: 0,
      rejectedCount: 0,
    });
  });

  it('defuses meter numbers a spreadsheet would run as formulas, and imports them back to the same meter', async () => {
    const [location] = await t.db.query<{ id: number }>(
      "SELECT id FROM locations WHERE public_name = 'Export site'",
    );
    for (const [index, meterNumber] of ['=1+1', '+SUM(A1)', '-2', '@cmd'].entries()) {
      const meter = await insertMeter(t.db, {
        meterNumber,
        locationId: location?.id ?? 0,
        meterInd: 10 + index,
        installedAt: new Date('2026-01-01T00:00:00Z'),
      });
      await insertReadings(t.db, meter, [[Date.parse('2026-03-29T10:00:00Z'), 5_000]]);
      const response = await t.call('GET', exportUrl({ meterNumber, From: '2026-03-29', To: '2026-03-29' }), {
        token: admin,
      });
      const row = response.body.split('\r\n')[1] ?? '';
      expect(row, meterNumber).toBe(`'${meterNumber},2026-03-29T12:00:00+02:00,5.000,0`);
      const back = await t.call('POST', '/api/admin/imports', {
        token: admin,
        body: response.body,
        headers: { 'content-type': 'text/csv' },
      });
      expect(back.json<ImportReport>(), meterNumber).toMatchObject({ unchanged: 1, rejectedCount: 0 });
    }
  });

  it('writes Green Button ESPI XML that validates against the ESPI XSD and imports back unchanged', async () => {
    const response = await t.call(
      'GET',
      exportUrl({ meterNumber: 'EXP-1', From: '2026-03-29', To: '2026-03-29', format: 'espi' }),
      { token: admin },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/atom\+xml/);
    expect(response.body.match(/<espi:IntervalReading>/g)).toHaveLength(24);
    // Energy in mWh (powerOfTenMultiplier -3) after the CT multiplier of 2: 1,000 kWh × 2.
    expect(response.body).toContain('<espi:powerOfTenMultiplier>-3</espi:powerOfTenMultiplier>');
    expect(response.body).toContain('<espi:value>2000000000</espi:value>');
    expect(await validateEspi(response.body)).toBe('');
    const empty = await t.call(
      'GET',
      exportUrl({ meterNumber: 'EXP-2', From: '2026-03-29', To: '2026-03-29', format: 'espi' }),
      { token: admin },
    );
    expect(await validateEspi(empty.body)).toBe('');
    const back = await t.call('POST', '/api/admin/imports?meterNumber=EXP-1', {
      token: admin,
      body: response.body,
      headers: { 'content-type': 'application/atom+xml' },
    });
    expect(back.json<ImportReport>()).toMatchObject({
      committed: true,
      inserted: 0,
      unchanged: 24,
      rejectedCount: 0,
    });
  });

  it('the validator really rejects an invalid document', async () => {
    expect(await validateEspi('<feed xmlns="http://www.w3.org/2005/Atom"><bogus/></feed>')).toMatch(/bogus/);
  });

  it('answers 400 naming the parameter, 404 for an unknown meter, 403 for a client', async () => {
    expect(
      (
        await t.call('GET', exportUrl({ meterNumber: 'EXP-1', From: 'soon', To: '2026-03-29' }), {
          token: admin,
        })
      ).json(),
    ).toMatchObject({ statusCode: 400, param: 'From' });
    expect(
      (
        await t.call(
          'GET',
          exportUrl({ meterNumber: 'EXP-1', From: '2026-03-29', To: '2026-03-29', format: 'pdf' }),
          { token: admin },
        )
      ).json(),
    ).toMatchObject({ statusCode: 400, param: 'format' });
    expect(
      (
        await t.call('GET', exportUrl({ meterNumber: 'NOPE', From: '2026-03-29', To: '2026-03-29' }), {
          token: admin,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.call('GET', exportUrl({ meterNumber: 'EXP-1', From: '2026-03-29', To: '2026-03-29' }), {
          token: client,
        })
      ).statusCode,
    ).toBe(403);
  });
});
