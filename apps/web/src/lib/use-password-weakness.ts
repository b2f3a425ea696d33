import { useEffect, useState } from 'react';
import type { PasswordWeakness, passwordWeakness } from '@cm/contracts/password-policy.ts';

type Check = typeof passwordWeakness;

// The policy's dictionary is large: loaded once, on the first page that sets a password.
let loading: Promise<Check> | undefined;
const loadCheck = () => {
  loading ??= import('@cm/contracts/password-policy.ts').then((policy) => policy.passwordWeakness);
  return loading;
};

/** What the server will say of a new password: `checked` false until the policy has loaded. */
export interface PasswordStrength {
  checked: boolean;
  weakness: PasswordWeakness | undefined;
}

/**
 * The server's own password policy (password-policy.ts), run in the browser as the user types,
 * for `person` (their e-mail and name are words a password must not be built from).
 */
export function usePasswordWeakness(
  password: string,
  person: { email?: string | undefined; fullName?: string | undefined },
): PasswordStrength {
  const [check, setCheck] = useState<Check | undefined>(undefined);
  useEffect(() => {
    let isMounted = true;
    void loadCheck().then((loaded) => {
      if (isMounted) setCheck(() => loaded);
    });
    return () => {
      isMounted = false;
    };
  }, []);
  if (!check) return { checked: false, weakness: undefined };
  return { checked: true, weakness: password === '' ? undefined : check(password, person) };
}

/** The i18n key saying why a password is too easy to guess. */
export const weaknessKey = (weakness: PasswordWeakness) => `auth.password.weakness.${weakness}`;
