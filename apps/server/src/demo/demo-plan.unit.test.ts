import { describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import { buildDemoPlan, type DemoPlan, type PlanInput } from './demo-plan.ts';

const USERS: PlanInput['users'] = [
  { key: 'admin', email: 'admin@demo.cm', fullName: 'A', roleId: Role.Admin, passwordHash: 'x' },
  { key: 'clientA', email: 'client.a@demo.cm', fullName: 'B', roleId: Role.Client, passwordHash: 'x' },
  { key: 'clientB', email: 'client.b@demo.cm', fullName: 'C', roleId: Role.Client, passwordHash: 'x' },
];
const NOW = Date.parse('2026-11-22T02:30:00Z');
const plan = (seed: number, months = 13) => buildDemoPlan({ seed, nowMs: NOW, months, users: USERS });

/** FNV-1a over every reading of every meter: one number that changes if any value, instant or flag does. */
function readingsHash(p: DemoPlan): number {
  let h = 0x811c9dc5;
  const mix = (v: number) => {
    h = Math.imul(h ^ (v | 0), 0x01000193);
    h = Math.imul(h ^ Math.floor(v / 4_294_967_296), 0x01000193);
  };
  for (const m of p.meters) {
    const r = m.readings;
    for (let i = 0; i < r.readAtMs.length; i += 1) {
      mix(r.readAtMs[i] ?? 0);
      mix(r.registerMilli[i] ?? 0);
      mix((r.source[i] ?? 0) * 2 + (r.quality[i] ?? 0));
    }
  }
  return h >>> 0;
}

describe('demo plan', () => {
  it('is the same for the same seed over the full 13 months, and differs for another seed', () => {
    const a = plan(5);
    expect(readingsHash(plan(5))).toBe(readingsHash(a));
    expect(plan(5).summary).toEqual(a.summary);
    expect(readingsHash(plan(6))).not.toBe(readingsHash(a));
  });

  it('keeps every register an integer number of Wh inside its digits', () => {
    const bad: string[] = [];
    for (const m of plan(5).meters) {
      for (const v of m.readings.registerMilli) {
        if (!Number.isInteger(v) || v < 0 || v >= 10 ** (m.registerDigits + 3))
          bad.push(`${m.meterNumber}: ${v}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it.each([1, 3, 13])('places every special case inside a %i-month period', (months) => {
    const { summary } = plan(5, months);
    const inside = (iso: string) => iso > summary.from && iso <= summary.now;
    expect(inside(summary.gap.firstMissing)).toBe(true);
    expect(inside(summary.gap.firstAfter)).toBe(true);
    expect(inside(summary.exchange.at)).toBe(true);
    expect(inside(summary.rollover.firstAfterWrap.at)).toBe(true);
    expect(inside(summary.staleCube.lastSeenAt)).toBe(true);
    expect(inside(summary.inactiveMeter.lastReadingAt)).toBe(true);
    expect(summary.estimated.meterNumbers.length).toBeGreaterThanOrEqual(3);
  });

  it('gives the 13-month demo three DST switches in each zone', () => {
    const { summary } = plan(5);
    for (const zone of ['Europe/Lisbon', 'Europe/Berlin', 'America/New_York']) {
      expect(summary.dstChanges.filter((c) => c.timeZone === zone)).toHaveLength(3);
    }
  });
});
