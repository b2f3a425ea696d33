import type { AuditList } from '@cm/contracts/admin.ts';
import type { i18n } from 'i18next';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { testI18n } from '@/test-support/i18n.ts';
import en from '../../../public/locales/en.json';
import de from '../../../public/locales/de.json';
import fr from '../../../public/locales/fr.json';
import { auditFields, auditSentence, entryDetail } from './audit-detail.ts';

type Entry = AuditList['items'][number];

const entry = (overrides: Partial<Entry>): Entry => ({
  id: 1,
  at: '2026-11-20T10:00:00.000Z',
  actorUserId: 1,
  actorApiKeyId: null,
  actorName: 'Dana Whitfield',
  action: 'user.disable',
  targetType: 'user',
  targetId: '7',
  targetName: 'Rita Reviewer',
  detail: null,
  names: {},
  ...overrides,
});

let t: i18n;
beforeAll(async () => {
  t = await testI18n('en', { en, de, fr });
});

describe('auditFields', () => {
  const f = () => ({ t: t.t, locale: t.language, timeZone: 'Europe/Berlin' });

  it('writes each field by its name in words, with its value in words (issue 34.9)', () => {
    expect(auditFields({ name: 'Ops', scopes: ['read'], prefix: 'cm_abc', strict: true }, f())).toEqual([
      'Name: Ops',
      'Permissions: read',
      'Key starts with: cm_abc',
      'Strict check: yes',
    ]);
    expect(auditFields({ fileName: 'x'.repeat(100) }, f(), {}, [], 10)).toEqual([`File: ${'x'.repeat(9)}…`]);
  });

  it('copes with nothing, scalars and arrays', () => {
    expect(auditFields(null, f())).toEqual([]);
    expect(auditFields(3, f())).toEqual(['3']);
    expect(auditFields([1, 2], f())).toEqual(['1, 2']);
  });

  it('names the locations and devices a detail refers to by id (issue 17.13)', () => {
    const names = { 'location:1': 'Harbour View', 'location:2': 'Marina Quay', 'device:12': 'CU-2003' };
    expect(auditFields({ locationIds: [1, 2, 9], toCubeId: 12 }, f(), names)).toEqual([
      'Locations: Harbour View, Marina Quay, 9',
      'To Cube: CU-2003',
    ]);
  });

  it('says an edit as what changed, before → after, in French with no raw key nor JSON', async () => {
    // A device edit (priorities: 1 New, 2 High, 3 Medium): High → Medium, the serial unchanged.
    const edit = {
      before: { serial: 'CU-2003', parentId: null, priority: 2, status: 'active' },
      changes: { serial: 'CU-2003', priority: 3 },
    };
    expect(auditFields(edit, f())).toEqual(['Priority: High → Medium']);
    await t.changeLanguage('fr');
    onTestFinished(async () => {
      await t.changeLanguage('en');
    });
    const created = auditFields(
      { type: 2, priority: 2, parentId: null, installedAt: '2026-06-22T08:30:00.000Z' },
      f(),
    );
    expect(created).toEqual([
      'Type : Cube (concentrateur de données)',
      'Priorité : Haute',
      'Relié à : —',
      expect.stringMatching(/^Installé le : 22 juin 2026.*10:30/),
    ]);
    expect(auditFields(edit, f()).join(' ')).not.toMatch(/[{}]|priority|parentId/);
  });
});

describe('auditSentence', () => {
  it('says who did what to whom, in the reader language', async () => {
    expect(auditSentence(entry({}), t.t)).toBe('Dana Whitfield disabled Rita Reviewer');
    await t.changeLanguage('de');
    expect(auditSentence(entry({}), t.t)).toBe('Dana Whitfield hat Rita Reviewer deaktiviert');
    await t.changeLanguage('en');
  });

  it('words failed sign-ins with the address typed and why, and leaves those out of the details', () => {
    const failed = entry({
      action: 'user.sign-in-failed',
      actorUserId: null,
      actorName: null,
      targetId: null,
      targetName: null,
      detail: { email: 'nobody@test.cm', reason: 'unknownEmail' },
    });
    expect(auditSentence(failed, t.t)).toBe('Failed sign-in as nobody@test.cm: no account has this address');
    expect(entryDetail(failed, { t: t.t, locale: 'en', timeZone: 'UTC' })).toEqual([]);
  });

  it('falls back to the action for one it has no words for', () => {
    expect(auditSentence(entry({ action: 'meter.teleport', targetName: null, targetId: 'EM-1' }), t.t)).toBe(
      'Dana Whitfield: meter.teleport EM-1',
    );
  });
});
