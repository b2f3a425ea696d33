import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import type { BookmarksData, SearchResult } from '@cm/contracts/bookmarks.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import { insertLocation, insertMeter, linkUserToLocation } from '../../test/factories.ts';

let t: TestApp;
let admin: string;
let clientA: string;
let clientB: string;

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  const a = await insertUser(t.db, { email: 'a@test.cm', password: 'Client!passA' });
  const b = await insertUser(t.db, { email: 'b@test.cm', password: 'Client!passB' });
  const north = await insertLocation(t.db, 'North Pier');
  const south = await insertLocation(t.db, 'South Pier');
  await linkUserToLocation(t.db, a, north);
  await linkUserToLocation(t.db, b, south);
  const installedAt = new Date('2026-01-01T00:00:00Z');
  for (const [number, location, ind] of [
    ['EM-100', north, 1],
    ['EM-1001', north, 2],
    ['XEM-100', north, 3],
    ['EM-200', south, 1],
  ] as const) {
    await insertMeter(t.db, { meterNumber: number, locationId: location, meterInd: ind, installedAt });
  }
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
  clientA = (await t.login('a@test.cm', 'Client!passA')).token;
  clientB = (await t.login('b@test.cm', 'Client!passB')).token;
});
afterAll(() => t.close());

describe('bookmarks', () => {
  it("suggests the caller's pages, locations and meters only", async () => {
    const data = (await t.call('GET', '/api/bookmarks/data', { token: clientA })).json<BookmarksData>();
    expect(data.suggestions.map((s) => s.id)).toEqual([
      'page:check',
      'location:North Pier',
      'meter:EM-100',
      'meter:EM-1001',
      'meter:XEM-100',
    ]);
    expect(data.suggestions[2]).toEqual({
      id: 'meter:EM-100',
      kind: 'meter',
      title: 'EM-100',
      subtitle: 'North Pier',
      link: '/check?meter=EM-100',
      icon: 'meter',
      isBookmarked: false,
    });
    expect(data.bookmarks).toEqual([]);
    // A named meter says its name beside its location (issue 17.10), everywhere it is listed.
    await t.db.query(`UPDATE meters SET label = 'HVAC' WHERE meter_number = 'EM-1001'`);
    const named = (await t.call('GET', '/api/bookmarks/data', { token: clientA })).json<BookmarksData>();
    expect(named.suggestions.find((s) => s.id === 'meter:EM-1001')?.subtitle).toBe('HVAC · North Pier');
    const found = (await t.call('GET', '/api/search?q=EM-1001', { token: clientA })).json<SearchResult>();
    expect(found.results[0]?.subtitle).toBe('HVAC · North Pier');
    // …and is found by that name.
    const byName = (await t.call('GET', '/api/search?q=hvac', { token: clientA })).json<SearchResult>();
    expect(byName.results.map((r) => r.id)).toEqual(['meter:EM-1001']);
    expect(named.suggestions.find((s) => s.id === 'location:North Pier')?.subtitle).toBe(
      (
        await t.db.query<{ address: string }>(
          `SELECT address FROM locations WHERE public_name = 'North Pier'`,
        )
      )[0]?.address,
    );
    const adminData = (await t.call('GET', '/api/bookmarks/data', { token: admin })).json<BookmarksData>();
    expect(adminData.suggestions.map((s) => s.id)).toContain('page:admin');
    expect(adminData.suggestions.map((s) => s.id)).toContain('meter:EM-200');
  });

  it('toggles a star, persisted per user', async () => {
    const on = await t.call('POST', '/api/bookmarks/update', {
      token: clientA,
      body: { id: 'meter:EM-1001' },
    });
    expect(on.json()).toEqual({ id: 'meter:EM-1001', isBookmarked: true });
    const data = (await t.call('GET', '/api/bookmarks/data', { token: clientA })).json<BookmarksData>();
    expect(data.bookmarks.map((b) => b.id)).toEqual(['meter:EM-1001']);
    expect(data.suggestions.find((s) => s.id === 'meter:EM-1001')?.isBookmarked).toBe(true);
    expect(
      (await t.call('GET', '/api/bookmarks/data', { token: clientB })).json<BookmarksData>().bookmarks,
    ).toEqual([]);
    const off = await t.call('POST', '/api/bookmarks/update', {
      token: clientA,
      body: { id: 'meter:EM-1001' },
    });
    expect(off.json()).toEqual({ id: 'meter:EM-1001', isBookmarked: false });
  });

  it('answers 404 for an unknown id or something the caller may not see', async () => {
    for (const id of ['meter:EM-200', 'meter:NOPE', 'page:admin', 'location:South Pier', 'nonsense']) {
      const response = await t.call('POST', '/api/bookmarks/update', { token: clientA, body: { id } });
      expect(response.statusCode, id).toBe(404);
    }
    expect((await t.call('POST', '/api/bookmarks/update', { token: clientA, body: {} })).statusCode).toBe(
      400,
    );
    expect((await t.call('POST', '/api/bookmarks/update', { body: { id: 'page:check' } })).statusCode).toBe(
      401,
    );
  });
});

describe('search', () => {
  it('ranks exact, then prefix, then substring matches within the caller scope', async () => {
    const results = (await t.call('GET', '/api/search?q=em-100', { token: clientA })).json<SearchResult>()
      .results;
    expect(results.map((r) => r.title)).toEqual(['EM-100', 'EM-1001', 'XEM-100']);
    const scoped = (await t.call('GET', '/api/search?q=EM-2', { token: clientA })).json<SearchResult>()
      .results;
    expect(scoped).toEqual([]);
    const places = (await t.call('GET', '/api/search?q=pier', { token: admin })).json<SearchResult>().results;
    expect(places.map((r) => r.id)).toEqual(['location:North Pier', 'location:South Pier']);
  });

  it('treats LIKE wildcards as text and refuses an empty query', async () => {
    expect((await t.call('GET', '/api/search?q=%25', { token: admin })).json<SearchResult>().results).toEqual(
      [],
    );
    expect((await t.call('GET', '/api/search?q=_', { token: admin })).json<SearchResult>().results).toEqual(
      [],
    );
    const empty = await t.call('GET', '/api/search?q=', { token: admin });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().param).toBe('q');
  });

  it("keeps a client's own names for its meters, seen by it alone, in its suggestions too", async () => {
    // Issue 17.5: "a client's own nickname".
    const name = (token: string, body: unknown) => t.call('PUT', '/api/bookmarks/nickname', { token, body });
    const named = await name(clientA, { meterNumber: 'EM-100', nickname: '  My flat  ' });
    expect(named.statusCode).toBe(200);
    expect(named.json()).toEqual({ meterNumber: 'EM-100', nickname: 'My flat' });
    const data = (await t.call('GET', '/api/bookmarks/data', { token: clientA })).json<BookmarksData>();
    expect(data.nicknames).toEqual({ 'EM-100': 'My flat' });
    expect(data.suggestions.find((s) => s.id === 'meter:EM-100')?.subtitle).toBe('My flat · North Pier');
    // …and the search finds the meter by it (issue 34: the check page's field offers what it finds).
    const byNickname = (
      await t.call('GET', '/api/search?q=my%20fl', { token: clientA })
    ).json<SearchResult>();
    expect(byNickname.results.map((r) => [r.id, r.subtitle])).toEqual([
      ['meter:EM-100', 'My flat · North Pier'],
    ]);
    expect(
      (await t.call('GET', '/api/search?q=my%20fl', { token: clientB })).json<SearchResult>().results,
    ).toEqual([]);
    // The administrator sees no client's names.
    const adminData = (await t.call('GET', '/api/bookmarks/data', { token: admin })).json<BookmarksData>();
    expect(adminData.nicknames).toEqual({});
    // Another client's meter is one that does not exist; bad names are refused naming the field.
    const other = await name(clientA, { meterNumber: 'EM-200', nickname: 'Theirs' });
    const missing = await name(clientA, { meterNumber: 'NOPE', nickname: 'Nothing' });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
    expect((await name(clientA, { meterNumber: 'EM-100', nickname: 'x'.repeat(61) })).json()).toMatchObject({
      statusCode: 400,
      param: 'nickname',
    });
    // Empty removes it.
    await name(clientA, { meterNumber: 'EM-100', nickname: '' });
    const cleared = (await t.call('GET', '/api/bookmarks/data', { token: clientA })).json<BookmarksData>();
    expect(cleared.nicknames).toEqual({});
  });
});
