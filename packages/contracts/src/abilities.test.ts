import { describe, expect, it } from 'vitest';
import { abilityRulesForRole, buildAbility } from './abilities.ts';
import { Role } from './enums.ts';

describe('abilities', () => {
  it('let an admin manage everything and a client only read what the check page needs', () => {
    const admin = buildAbility(abilityRulesForRole(Role.Admin));
    expect(admin.can('manage', 'User')).toBe(true);
    expect(admin.can('delete', 'ApiKey')).toBe(true);
    const client = buildAbility(abilityRulesForRole(Role.Client));
    expect(client.can('read', 'Check')).toBe(true);
    expect(client.can('update', 'Bookmark')).toBe(true);
    expect(client.can('read', 'User')).toBe(false);
    expect(client.can('manage', 'all')).toBe(false);
  });

  it('fall back to read Auth when no rules are stored (spec §6)', () => {
    for (const rules of [undefined, null, []]) {
      const ability = buildAbility(rules);
      expect(ability.can('read', 'Auth')).toBe(true);
      expect(ability.can('read', 'Check')).toBe(false);
    }
  });
});
