import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAVY_ROUTES } from '../../plugins/load-shedding.ts';
import {
  insertLocation,
  insertMeter,
  insertReadings,
  linkUserToLocation,
  regularReadings,
} from '../factories.ts';
import { createTestApp, insertUser, type TestApp } from '../test-app.ts';

// Security probe 2026-11-27, finding 3 (probes N3, #205–#207): one client's parallel downloads and
// raw location reads made everyone wait. On the real app and its real routes: a user's heavy
// requests beyond CM_HEAVY_PER_USER at work and eight times as many waiting are refused with 429,
// whatever spelling of /api they use, while another user is answered.
let t: TestApp;
let greedy: string;
let other: string;

beforeAll(async () => {
  t = await createTestApp({ CM_HEAVY_PER_USER: '1' });
  const greedyId = await insertUser(t.db, { email: 'greedy@test.cm', password: 'Greedy!pass1' });
  const otherId = await insertUser(t.db, { email: 'other@test.cm', password: 'Other!pass1' });
  const site = await insertLocation(t.db, 'Greedy site', 'Europe/Berlin');
  const theirs = await insertLocation(t.db, 'Other site', 'Europe/Berlin');
  await linkUserToLocation(t.db, greedyId, site);
  await linkUserToLocation(t.db, otherId, theirs);
  const installedAt = new Date('2026-01-01T00:00:00Z');
  const meter = await insertMeter(t.db, { meterNumber: 'GR-1', locationId: site, meterInd: 1, installedAt });
  await insertMeter(t.db, { meterNumber: 'OT-1', locationId: theirs, meterInd: 1, installedAt });
  // Ten days of 15-minute registers: each request has real work to do.
  const from = Date.parse('2026-02-01T00:00:00Z');
  await insertReadings(
    t.db,
    meter,
    regularReadings(from, from + 10 * 86_400_000, 900_000, 1_000_000, () => 250),
  );
  greedy = (await t.login('greedy@test.cm', 'Greedy!pass1')).token;
  other = (await t.login('other@test.cm', 'Other!pass1')).token;
});
afterAll(() => t?.close());

const download = (prefix: string) =>
  `${prefix}/CheckMeter/DownloadMyData?meterNumber=GR-1&From=2026-02-01&To=2026-02-10&format=espi`;
const rawReads = (prefix: string) =>
  `${prefix}/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=Greedy%20site&From=2026-02-01&To=2026-02-10&granularity=raw`;

describe("one user's heavy requests", () => {
  it('are every one a registered route, so that no rename drops the limit', () => {
    for (const url of HEAVY_ROUTES) {
      const method = url === '/api/admin/imports' ? 'POST' : 'GET';
      expect(t.app.hasRoute({ method, url }), `${method} ${url}`).toBe(true);
    }
  });

  for (const [what, url] of [
    ['Download My Data', download('/api')],
    ['raw location reads', rawReads('/api')],
    ['raw location reads through /%61pi', rawReads('/%61pi')],
  ] as const) {
    it(`queue 1 at work and 8 waiting, refuse the rest of 40 at once with 429, and let another user in: ${what}`, async () => {
      const flood = Array.from({ length: 40 }, () => t.call('GET', url, { token: greedy }));
      const theirs = t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=OT-1', { token: other });
      const answers = await Promise.all(flood);
      const statuses = answers.map((answer) => answer.statusCode);
      expect(new Set(statuses)).toEqual(new Set([200, 429]));
      // At most 1 + 8 are taken at once; 40 arrive together, so at least 31 are refused.
      expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(9);
      const refused = answers.find((answer) => answer.statusCode === 429);
      expect(refused?.headers['retry-after']).toBe('5');
      expect((await theirs).statusCode).toBe(200);
    });
  }
});
