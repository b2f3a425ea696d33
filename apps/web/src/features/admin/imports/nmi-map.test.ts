import { describe, expect, it } from 'vitest';
import { nmiMapText, parseNmiMap } from './nmi-map.ts';

describe('the NMI map an administrator types', () => {
  it('reads one NMI = meter per line, a suffix allowed, and writes it back', () => {
    const map = parseNmiMap('QB00000002 = AU-QB-2\n\n NCDE001111/B1=NCDE-EXPORT \nnot a line\n= x');
    expect(map).toEqual({ QB00000002: 'AU-QB-2', 'NCDE001111/B1': 'NCDE-EXPORT' });
    expect(nmiMapText(map ?? {})).toBe('QB00000002 = AU-QB-2\nNCDE001111/B1 = NCDE-EXPORT');
    expect(parseNmiMap('  \n')).toBeUndefined();
  });
});
