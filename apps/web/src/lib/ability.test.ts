import { describe, expect, it } from 'vitest';
import { buildAbility, sameRules } from './ability.ts';

describe('ability', () => {
  it('defaults to read Auth without rules', () => {
    const ability = buildAbility([]);
    expect(ability.can('read', 'Auth')).toBe(true);
    expect(ability.can('read', 'Check')).toBe(false);
  });

  it('tells equal rule lists from different ones', () => {
    const rules = [
      { action: 'read', subject: 'Check' },
      { action: 'read', subject: 'Auth' },
    ] as const;
    expect(
      sameRules(
        rules,
        rules.map((rule) => ({ ...rule })),
      ),
    ).toBe(true);
    expect(sameRules(rules, [rules[0]])).toBe(false);
    expect(sameRules(rules, [rules[1], rules[0]])).toBe(false);
    expect(sameRules(rules, [{ action: 'manage', subject: 'Check' }, rules[1]])).toBe(false);
  });
});
