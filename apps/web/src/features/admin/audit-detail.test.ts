import { describe, expect, it } from 'vitest';
import { auditDetail } from './audit-detail.ts';

describe('auditDetail', () => {
  it('writes a flat object as key: value pairs and cuts long values', () => {
    expect(auditDetail({ name: 'Ops', scopes: ['read'], prefix: 'cm_abc' })).toBe(
      'name: Ops · scopes: ["read"] · prefix: cm_abc',
    );
    expect(auditDetail({ reason: 'x'.repeat(100) }, 10)).toBe(`reason: ${'x'.repeat(9)}…`);
  });

  it('copes with nothing, scalars and arrays', () => {
    expect(auditDetail(null)).toBe('');
    expect(auditDetail(3)).toBe('3');
    expect(auditDetail([1, 2])).toBe('[1,2]');
  });
});
