/**
 * An audit entry's detail as one line: `key: value` pairs for a flat object (what the server
 * writes), JSON for anything deeper. Long values are cut, never the keys.
 */
export function auditDetail(detail: unknown, maxValue = 80): string {
  if (detail === null || detail === undefined) return '';
  if (typeof detail !== 'object') return String(detail);
  if (Array.isArray(detail)) return JSON.stringify(detail);
  return Object.entries(detail)
    .map(([key, value]) => {
      const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
      return `${key}: ${text.length > maxValue ? `${text.slice(0, maxValue - 1)}…` : text}`;
    })
    .join(' · ');
}
