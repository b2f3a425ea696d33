import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { GrantCells } from '@/components/connect-grant-cells.tsx';
import { useGrantRevoke } from '@/components/use-grant-revoke.ts';
import { formatDate } from '@/lib/format.ts';
import { toFailure } from '@/lib/http-client.ts';
import { useListConnectGrantsQuery, useRevokeConnectGrantMutation } from './connect-apps-api.ts';
import { AdminListPanel, AdminTable, ConfirmDialog } from './admin-ui.tsx';
import classes from './admin.module.css';

/** Every customer's grants to apps (issue 37): given, ended and by whom; an administrator may revoke one. */
export function ConnectGrantsPanel() {
  const { t, i18n } = useTranslation();
  const query = useListConnectGrantsQuery();
  const [revoke, revokeState] = useRevokeConnectGrantMutation();
  const { confirm, setConfirm, handleRevoke } = useGrantRevoke(revoke);
  const grants = query.data ?? [];
  const date = (value: string) => formatDate(value, i18n.language);

  return (
    <AdminListPanel id="cm-grants-title" title={t('admin.connect.grants')} failure={toFailure(query.error)}>
      <AdminTable
        headers={[
          t('connect.apps.app'),
          t('admin.connect.customer'),
          t('connect.apps.meters'),
          t('connect.apps.data'),
          t('connect.apps.period'),
          t('connect.apps.state'),
        ]}
        hasActions
        isBusy={query.isFetching}
        isEmpty={grants.length === 0}
        emptyText={t('admin.connect.noGrants')}
        minWidth={900}
      >
        {grants.map((grant) => (
          <Table.Tr key={grant.id} data-testid="connect-grant-row">
            <Table.Td>
              {grant.app.name}
              <Text size="xs" c="dimmed">
                {t('connect.apps.given', { date: date(grant.createdAt) })}
              </Text>
            </Table.Td>
            <Table.Td>{grant.user.email}</Table.Td>
            <Table.Td>{grant.meterNumbers.join(', ')}</Table.Td>
            <Table.Td>{grant.dataKinds.map((kind) => t(`accessLog.kinds.${kind}`)).join(', ')}</Table.Td>
            <Table.Td className={classes.nowrap}>
              {t('connect.apps.range', { from: date(grant.from), until: date(grant.until) })}
            </Table.Td>
            <GrantCells
              grant={grant}
              endedText={(ended) =>
                t('admin.connect.endedBy', {
                  date: date(ended.revokedAt),
                  by: t(`admin.connect.revokedBy.${ended.revokedBy ?? 'customer'}`),
                })
              }
              onRevoke={setConfirm}
            />
          </Table.Tr>
        ))}
      </AdminTable>
      <ConfirmDialog
        subject={confirm}
        title={t('connect.apps.revokeTitle')}
        message={t('connect.apps.revokeConfirm', { app: confirm?.app.name ?? '' })}
        action={t('connect.apps.revoke')}
        color="red"
        isBusy={revokeState.isLoading}
        onConfirm={(target) => void handleRevoke(target)}
        onCancel={() => setConfirm(null)}
      />
    </AdminListPanel>
  );
}
