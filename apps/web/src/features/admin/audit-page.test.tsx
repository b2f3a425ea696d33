// @vitest-environment jsdom
import type { AuditList } from '@cm/contracts/admin.ts';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { AuditPage } from './audit-page.tsx';

const deviceEdit: AuditList['items'][number] = {
  id: 7,
  at: '2026-11-27T08:00:00.000Z',
  actorUserId: 1,
  actorApiKeyId: null,
  actorName: 'Dana Whitfield',
  action: 'device.update',
  targetType: 'device',
  targetId: '12',
  targetName: 'CU-2003',
  // Priorities: 2 High, 3 Medium.
  detail: { before: { serial: 'CU-2003', parentId: null, priority: 2 }, changes: { priority: 3 } },
  names: {},
};

describe('Audit log page', () => {
  beforeEach(() => {
    const server = stubServer({
      'GET /api/admin/audit': { body: { items: [deviceEdit], total: 1, page: 1, pageSize: 50 } },
      'GET /api/admin/users': { body: { items: [], total: 0, page: 1, pageSize: 100 } },
    });
    vi.stubGlobal('fetch', server.fetch);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('has as many headers as cells a row, and says the details in words (issue 34.9)', async () => {
    await renderPage(<AuditPage />);
    const row = await screen.findByTestId('audit-7');
    const table = row.closest('table');
    if (!table) throw new Error('no table');
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['When', 'What happened', 'Details']);
    expect(within(row).getAllByRole('cell')).toHaveLength(headers.length);
    expect(within(row).getByTestId('audit-sentence').textContent).toBe(
      'Dana Whitfield edited the device CU-2003',
    );
    expect(within(row).getByTestId('audit-detail').textContent).toBe('Priority: High → Medium');
  });
});
