import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { Webhook } from '@cm/contracts/alerts.ts';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber, readerTimeZone, utcOffsetText } from '@/lib/format.ts';
import { toFailure } from '@/lib/http-client.ts';
import { AdminPanel, AdminTable, ConfirmDialog, FailureAlert } from './admin-ui.tsx';
import classes from './admin.module.css';
import { deliveryResultText } from './webhook-result.ts';
import {
  useAddWebhookMutation,
  useListWebhookDeliveriesQuery,
  useListWebhooksQuery,
  useRemoveWebhookMutation,
} from './webhooks-api.ts';

const STATUS_COLOR = { pending: 'yellow', delivered: 'teal', failed: 'red' } as const;

/** A webhook's latest deliveries: event, status, tries and the endpoint's last answer. */
function Deliveries({ webhook }: { webhook: Webhook }) {
  const { t, i18n } = useTranslation();
  const { data } = useListWebhookDeliveriesQuery(webhook.id);
  const zone = readerTimeZone();
  const at = (iso: string) =>
    `${formatDateTime(iso, i18n.language, zone)} (${utcOffsetText(Date.parse(iso), zone)})`;
  if (!data) return null;
  if (data.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('admin.webhooks.noDeliveries')}
      </Text>
    );
  return (
    <div
      className={classes.tableWrap}
      tabIndex={0}
      role="region"
      aria-label={t('admin.webhooks.deliveries', { url: webhook.url })}
    >
      <Table verticalSpacing={4} data-testid="webhook-deliveries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.webhooks.event')}</Table.Th>
            <Table.Th>{t('admin.webhooks.status')}</Table.Th>
            <Table.Th>{t('admin.webhooks.attempts')}</Table.Th>
            <Table.Th>{t('admin.webhooks.lastResult')}</Table.Th>
            <Table.Th>{t('admin.webhooks.when')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.map((delivery) => (
            <Table.Tr key={delivery.id}>
              <Table.Td>
                <Code>{delivery.event}</Code>
              </Table.Td>
              <Table.Td>
                <Badge variant="dot" color={STATUS_COLOR[delivery.status]}>
                  {t(`admin.webhooks.statuses.${delivery.status}`)}
                </Badge>
              </Table.Td>
              <Table.Td>{formatNumber(delivery.attempts, i18n.language)}</Table.Td>
              <Table.Td>{deliveryResultText(delivery.lastResult, t)}</Table.Td>
              <Table.Td className={classes.nowrap}>
                {delivery.deliveredAt
                  ? at(delivery.deliveredAt)
                  : delivery.nextAttemptAt
                    ? t('admin.webhooks.nextAttempt', { at: at(delivery.nextAttemptAt) })
                    : at(delivery.createdAt)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

/**
 * Webhooks for integrators: every alert fired and cleared is POSTed to each, signed with its
 * secret (shown once), retried with backoff; each one's deliveries can be looked at.
 */
export function WebhooksPanel() {
  const { t } = useTranslation();
  const list = useListWebhooksQuery();
  const [addWebhook, addState] = useAddWebhookMutation();
  const [removeWebhook, removeState] = useRemoveWebhookMutation();
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [shown, setShown] = useState<number | null>(null);
  // Removing a webhook stops its deliveries at once: asked first (issue 34, low).
  const [confirmRemove, setConfirmRemove] = useState<Webhook | null>(null);
  const shownWebhook = list.data?.find((webhook) => webhook.id === shown);

  async function handleAdd(event: React.FormEvent) {
    event.preventDefault();
    const created = await addWebhook(url.trim()).unwrap();
    setSecret(created.secret);
    setUrl('');
    toast.success(t('admin.webhooks.added'));
  }

  return (
    <AdminPanel labelledBy="cm-webhooks-title">
      <Stack gap="sm" data-testid="webhooks">
        <Title order={2} size="h4" id="cm-webhooks-title">
          {t('admin.webhooks.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('admin.webhooks.intro')}
        </Text>
        <form onSubmit={(event) => void handleAdd(event)} noValidate>
          <Group align="flex-end" gap="sm">
            <TextInput
              label={t('admin.webhooks.url')}
              placeholder={t('admin.webhooks.urlPlaceholder')}
              value={url}
              onChange={(event) => setUrl(event.currentTarget.value)}
              maw={480}
              style={{ flex: 1 }}
              required
            />
            <Button
              type="submit"
              leftSection={<IconPlus size={16} aria-hidden />}
              loading={addState.isLoading}
            >
              {t('admin.webhooks.add')}
            </Button>
          </Group>
        </form>
        <FailureAlert failure={toFailure(list.error ?? addState.error ?? removeState.error)} />
        {secret ? (
          <Alert
            color="blue"
            variant="light"
            title={t('admin.webhooks.secretTitle')}
            data-testid="webhook-secret"
          >
            <Text size="sm">{t('admin.webhooks.secretHint')}</Text>
            <Code block mt="xs">
              {secret}
            </Code>
          </Alert>
        ) : null}
        <AdminTable
          caption={t('admin.webhooks.title')}
          headers={[
            t('admin.webhooks.url'),
            t('admin.webhooks.statuses.delivered'),
            t('admin.webhooks.statuses.pending'),
            t('admin.webhooks.statuses.failed'),
          ]}
          hasActions
          isBusy={list.isFetching}
          isEmpty={(list.data ?? []).length === 0}
          emptyText={t('admin.webhooks.none')}
          minWidth={560}
        >
          {(list.data ?? []).map((webhook) => (
            <Table.Tr key={webhook.id} data-testid="webhook-row">
              <Table.Td>
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => setShown(shown === webhook.id ? null : webhook.id)}
                >
                  {webhook.url}
                </Anchor>
              </Table.Td>
              <Table.Td>{webhook.delivered}</Table.Td>
              <Table.Td>{webhook.pending}</Table.Td>
              <Table.Td>{webhook.failed}</Table.Td>
              <Table.Td>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  onClick={() => setConfirmRemove(webhook)}
                >
                  {t('admin.webhooks.remove')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </AdminTable>
        {shownWebhook ? <Deliveries webhook={shownWebhook} /> : null}
      </Stack>
      <ConfirmDialog
        subject={confirmRemove}
        title={t('admin.webhooks.removeTitle')}
        message={t('admin.webhooks.removeConfirm', { url: confirmRemove?.url ?? '' })}
        action={t('admin.webhooks.remove')}
        color="red"
        isBusy={removeState.isLoading}
        onConfirm={(webhook) => {
          void removeWebhook(webhook.id).then(() => setConfirmRemove(null));
        }}
        onCancel={() => setConfirmRemove(null)}
      />
    </AdminPanel>
  );
}
