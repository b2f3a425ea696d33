import type { AuditList } from '@cm/contracts/admin.ts';
import type { i18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { testI18n } from '@/test-support/i18n.ts';
import en from '../../../public/locales/en.json';
import de from '../../../public/locales/de.json';
import { auditDetail, auditSentence, entryDetail } from './audit-detail.ts';

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
  t = await testI18n('en', { en, de });
});

describe('auditDetail', () => {
  it('writes a flat object as key: value pairs and cuts long values', () => {
    expect(auditDetail({ name: 'Ops', scopes: ['read'], prefix: 'cm_abc' })).toBe(
      'name: Ops · scopes: ["read"] · prefix: cm_abc',
    );
    expect(auditDetail({ reason: 'x'.repeat(100) }, {}, 10)).toBe(`reason: ${'x'.repeat(9)}…`);
  });

  it('copes with nothing, scalars and arrays', () => {
    expect(auditDetail(null)).toBe('');
    expect(auditDetail(3)).toBe('3');
    expect(auditDetail([1, 2])).toBe('[1,2]');
  });

  it('names the locations and devices a detail refers to by id (issue 17.13)', () => {
    const names = { 'location:1': 'Harbour View', 'location:2': 'Marina Quay', 'device:12': 'CU-2003' };
    expect(auditDetail({ locationIds: [1, 2, 9], toCubeId: 12 }, names)).toBe(
      'locationIds: Harbour View, Marina Quay, 9 · toCubeId: CU-2003',
    );
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
    expect(entryDetail(failed)).toBe('');
  });

  it('falls back to the action for one it has no words for', () => {
    expect(auditSentence(entry({ action: 'meter.teleport', targetName: null, targetId: 'EM-1' }), t.t)).toBe(
      'Dana Whitfield: meter.teleport EM-1',
    );
  });
});
