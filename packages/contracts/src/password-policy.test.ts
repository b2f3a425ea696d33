import { describe, expect, it } from 'vitest';
import { passwordWeakness } from './password-policy.ts';

const person = { email: 'marie.dupont@example.org', fullName: 'Marie Dupont' };

describe('password policy', () => {
  it('refuses what the review set, with the reason', () => {
    expect(passwordWeakness('aaaaaaaaaa', person)).toBe('repeated');
    expect(passwordWeakness('password12', person)).toBe('common');
    expect(passwordWeakness('          ', person)).toBe('repeated');
    expect(passwordWeakness('marie.dupont@example.org', person)).toBe('personal');
  });

  it('refuses common passwords and their variants, sequences, keyboard rows and personal words', () => {
    expect(passwordWeakness('Password123!', person)).toBe('common');
    expect(passwordWeakness("asdfghjkl;'", person)).toBe('keyboard');
    expect(passwordWeakness('abcdefghijkl', person)).toBe('sequence');
    expect(passwordWeakness('MarieDupont1', person)).toBe('personal');
    expect(passwordWeakness('checkmeter123', person)).toBe('personal');
  });

  it('accepts long passphrases and random passwords, with no composition rule', () => {
    for (const password of [
      'correct horse battery',
      'jR7#kq2Lm9xw',
      'orange tractor under rain',
      'Stolen!changed-1',
    ])
      expect(passwordWeakness(password, person), password).toBeUndefined();
  });
});
