import type { ConnectGrant } from '@cm/contracts/connect.ts';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';

/**
 * Revoking a grant wherever grants are listed (the customer's Connected apps, the administrators'
 * grants): the grant waiting for confirmation, and the revoke that says how it went in a toast.
 * `revoke` is the list's own mutation trigger.
 */
export function useGrantRevoke(revoke: (id: number) => { unwrap: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const [confirm, setConfirm] = useState<ConnectGrant | null>(null);

  async function handleRevoke(grant: ConnectGrant) {
    try {
      await revoke(grant.id).unwrap();
      toast.success(t('connect.apps.revoked', { app: grant.app.name }), { id: 'grant-revoked' });
    } catch {
      toast.error(t('connect.apps.revokeFailed'), { id: 'grant-revoked' });
    }
    setConfirm(null);
  }

  return { confirm, setConfirm, handleRevoke };
}
