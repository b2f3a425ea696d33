import type { NmiMap } from '@cm/contracts/import-jobs.ts';

// The NMI → meter map of a NEM12/NEM13 import as an administrator types it: one `NMI = meter
// number` per line (`NMI/E1 = meter number` for one suffix); blank lines are ignored.

/** The lines as a map (a line without "=" is left out); undefined when none. */
export function parseNmiMap(text: string): NmiMap | undefined {
  const entries = text
    .split(/\r?\n/)
    .map((line) => line.split('='))
    .filter((parts) => parts.length === 2)
    .map(([nmi = '', meter = '']) => [nmi.trim(), meter.trim()] as const)
    .filter(([nmi, meter]) => nmi !== '' && meter !== '');
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** A saved map as the lines to edit. */
export function nmiMapText(map: NmiMap): string {
  return Object.entries(map)
    .map(([nmi, meter]) => `${nmi} = ${meter}`)
    .join('\n');
}
