import { Alert, Box, Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '@/lib/config.ts';
import { GrantCells } from '@/components/connect-grant-cells.tsx';
import { useGrantRevoke } from '@/components/use-grant-revoke.ts';
import { formatDate } from '@/lib/format.ts';
import { toFailure } from '@/lib/http-client.ts';
import { useListGrantsQuery, useRevokeGrantMutation } from './connect-api.ts';

/**
 * Connected apps (issue 37): every grant the customer gave, with its meters, data, dates and
 * state; revoking one ends it at once (the app's next call answers 401).
 */
export function ConnectedAppsPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(`${t('connect.apps.title')} · ${PRODUCT_NAME}`);
  const query = useListGrantsQuery();
  const [revoke, revokeState] = useRevokeGrantMutation();
  const { confirm, setConfirm, handleRevoke } = useGrantRevoke(revoke);
  const failure = toFailure(query.error);
  const grants = query.data ?? [];
  const date = (value: string) => formatDate(value, i18n.language);

  return (
    <Stack gap="md" maw={1100}>
      <div>
        <Title order={1}>{t('connect.apps.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('connect.apps.intro')}
        </Text>
      </div>
      {failure ? (
        <Alert color="red" role="alert">
          {failure.message ?? t('connect.apps.failed')}
        </Alert>
      ) : null}
      <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('connect.apps.title')}>
        <Table striped miw={720} data-testid="connected-apps">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('connect.apps.app')}</Table.Th>
              <Table.Th>{t('connect.apps.meters')}</Table.Th>
              <Table.Th>{t('connect.apps.data')}</Table.Th>
              <Table.Th>{t('connect.apps.period')}</Table.Th>
              <Table.Th>{t('connect.apps.state')}</Table.Th>
              <Table.Th>{t('connect.apps.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {grants.map((grant) => (
              <Table.Tr key={grant.id} data-testid="connected-app-row">
                <Table.Td>
                  {grant.app.name}
                  <Text size="xs" c="dimmed">
                    {t('connect.apps.given', { date: date(grant.createdAt) })}
                  </Text>
                </Table.Td>
                <Table.Td>{grant.meterNumbers.join(', ')}</Table.Td>
                <Table.Td>{grant.dataKinds.map((kind) => t(`accessLog.kinds.${kind}`)).join(', ')}</Table.Td>
                <Table.Td>
                  {t('connect.apps.range', { from: date(grant.from), until: date(grant.until) })}
                </Table.Td>
                <GrantCells
                  grant={grant}
                  endedText={(ended) => t('connect.apps.ended', { date: date(ended.revokedAt) })}
                  onRevoke={setConfirm}
                />
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Box>
      {!query.isLoading && grants.length === 0 ? <Text c="dimmed">{t('connect.apps.empty')}</Text> : null}
      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={t('connect.apps.revokeTitle')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack>
          <Text>{t('connect.apps.revokeConfirm', { app: confirm?.app.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              {t('admin.actions.cancel')}
            </Button>
            <Button
              color="red"
              loading={revokeState.isLoading}
              onClick={() => confirm && void handleRevoke(confirm)}
              data-testid="confirm-revoke"
            >
              {t('connect.apps.revoke')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
