import {
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import type { AdminApiKey } from '@cm/contracts/admin.ts';
import { apiKeyScopes, type ApiKeyScope } from '@cm/contracts/enums.ts';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { MailSetupPanel } from './mail-setup-panel.tsx';
import { WebhooksPanel } from './webhooks-panel.tsx';
import { formatDate, formatRelative, formatZonedDateTime, readerTimeZone } from '@/lib/format.ts';
import { toFailure, type Failure } from '@/lib/http-client.ts';
import { useCreateApiKeyMutation, useListApiKeysQuery, useRevokeApiKeyMutation } from './api-keys-api.ts';
import {
  AdminPageHeader,
  AdminListPanel,
  AdminPanel,
  CreateFooter,
  AdminTable,
  ConfirmDialog,
  OneTimeSecret,
} from './admin-ui.tsx';
import { describeFailure } from './failure-message.ts';
import classes from './admin.module.css';

const scopeKeys: Record<ApiKeyScope, { label: string; hint: string }> = {
  web: { label: 'admin.apiKeys.scope.web', hint: 'admin.apiKeys.scopeHint.web' },
  read: { label: 'admin.apiKeys.scope.read', hint: 'admin.apiKeys.scopeHint.read' },
  ingest: { label: 'admin.apiKeys.scope.ingest', hint: 'admin.apiKeys.scopeHint.ingest' },
};

function isScope(value: string): value is ApiKeyScope {
  return apiKeyScopes.some((scope) => scope === value);
}

/** API keys: create (the key is shown once), list by prefix with last use, revoke. */
export function ApiKeysPage() {
  const { t, i18n } = useTranslation();
  const query = useListApiKeysQuery();
  const [createApiKey, createState] = useCreateApiKeyMutation();
  const [revokeApiKey, revokeState] = useRevokeApiKeyMutation();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['read']);
  const [errors, setErrors] = useState<{ name?: string; scopes?: string }>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [created, setCreated] = useState<{ key: string; apiKey: AdminApiKey } | null>(null);
  const [confirmRevoke, setConfirmRevoke] = useState<AdminApiKey | null>(null);

  async function handleCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = {
      ...(name.trim() === '' ? { name: t('admin.apiKeys.nameRequired') } : {}),
      ...(scopes.length === 0 ? { scopes: t('admin.apiKeys.scopesRequired') } : {}),
    };
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setFailure(null);
    try {
      const result = await createApiKey({ name: name.trim(), scopes }).unwrap();
      setCreated(result);
      setName('');
    } catch (error) {
      setFailure(toFailure(error));
    }
  }

  async function handleRevoke(apiKey: AdminApiKey) {
    try {
      await revokeApiKey(apiKey.id).unwrap();
      toast.success(t('admin.apiKeys.revoked', { name: apiKey.name }));
    } catch (error) {
      const revokeFailure = toFailure(error);
      if (revokeFailure) {
        const text = describeFailure(revokeFailure);
        toast.error(t(text.key, text.values));
      }
    } finally {
      setConfirmRevoke(null);
    }
  }

  const keys = [...(query.data ?? [])].sort(
    (a, b) =>
      Number(a.revokedAt !== null) - Number(b.revokedAt !== null) || b.createdAt.localeCompare(a.createdAt),
  );

  return (
    <Stack gap="md" className={classes.page}>
      <AdminPageHeader title={t('admin.apiKeys.title')} intro={t('admin.apiKeys.intro')} />
      <AdminPanel labelledBy="cm-new-key-title">
        <form onSubmit={handleCreate} noValidate>
          <Stack gap="sm">
            <Title order={2} size="h4" id="cm-new-key-title">
              {t('admin.apiKeys.create')}
            </Title>
            <TextInput
              label={t('admin.apiKeys.name')}
              description={t('admin.apiKeys.nameHint')}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={errors.name}
              maxLength={100}
              required
              maw={480}
              autoComplete="off"
            />
            <Checkbox.Group
              label={t('admin.apiKeys.scopes')}
              value={scopes}
              onChange={(values) => setScopes(values.filter(isScope))}
              error={errors.scopes}
              required
            >
              <Stack gap={6} mt={6}>
                {apiKeyScopes.map((scope) => (
                  <Checkbox
                    key={scope}
                    value={scope}
                    label={t(scopeKeys[scope].label)}
                    description={t(scopeKeys[scope].hint)}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
            <CreateFooter
              failure={failure}
              label={t('admin.apiKeys.createAction')}
              isBusy={createState.isLoading}
            />
          </Stack>
        </form>
      </AdminPanel>

      <AdminListPanel id="cm-keys-title" title={t('admin.apiKeys.list')} failure={toFailure(query.error)}>
        <AdminTable
          headers={[
            t('admin.apiKeys.name'),
            t('admin.apiKeys.prefix'),
            t('admin.apiKeys.scopes'),
            t('admin.apiKeys.created'),
            t('admin.apiKeys.lastUsed'),
          ]}
          hasActions
          isBusy={query.isFetching}
          isEmpty={keys.length === 0}
          emptyText={t('admin.apiKeys.empty')}
          minWidth={720}
        >
          {keys.map((apiKey) => (
            <Table.Tr key={apiKey.id} data-testid={`api-key-${apiKey.name}`}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {apiKey.name}
                </Text>
              </Table.Td>
              <Table.Td className={classes.mono}>
                <Group gap={4} wrap="nowrap">
                  <IconKey size={14} aria-hidden />
                  <span>{`${apiKey.prefix}…`}</span>
                </Group>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {apiKey.scopes.map((scope) => (
                    <Badge key={scope} variant="light" size="sm">
                      {t(scopeKeys[scope].label)}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td className={classes.nowrap}>{formatDate(apiKey.createdAt, i18n.language)}</Table.Td>
              <Table.Td className={classes.nowrap}>
                {apiKey.lastUsedAt ? (
                  <Tooltip label={formatZonedDateTime(apiKey.lastUsedAt, i18n.language, readerTimeZone())}>
                    <Text size="sm" component="time" dateTime={apiKey.lastUsedAt}>
                      {formatRelative(apiKey.lastUsedAt, i18n.language)}
                    </Text>
                  </Tooltip>
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('admin.apiKeys.neverUsed')}
                  </Text>
                )}
              </Table.Td>
              <Table.Td className={classes.nowrap}>
                {apiKey.revokedAt ? (
                  <Badge variant="outline" color="gray">
                    {t('admin.apiKeys.revokedOn', {
                      date: formatDate(apiKey.revokedAt, i18n.language),
                    })}
                  </Badge>
                ) : apiKey.isWebApp ? (
                  <Tooltip label={t('admin.apiKeys.webAppKeyHint')} multiline w={280}>
                    <Badge variant="light" color="blue" tabIndex={0}>
                      {t('admin.apiKeys.webAppKey')}
                    </Badge>
                  </Tooltip>
                ) : (
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() => setConfirmRevoke(apiKey)}
                    aria-label={t('admin.apiKeys.revokeNamed', { name: apiKey.name })}
                  >
                    {t('admin.apiKeys.revoke')}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </AdminTable>
      </AdminListPanel>

      <Modal
        closeButtonProps={{ 'aria-label': t('common.close') }}
        opened={created !== null}
        onClose={() => setCreated(null)}
        title={t('admin.apiKeys.createdTitle', { name: created?.apiKey.name ?? '' })}
        centered
        size="lg"
        closeOnClickOutside={false}
      >
        {created ? (
          <OneTimeSecret
            label={t('admin.apiKeys.key')}
            warning={t('admin.apiKeys.keyWarning')}
            value={created.key}
            onDone={() => setCreated(null)}
          />
        ) : null}
      </Modal>

      <MailSetupPanel />
      <WebhooksPanel />

      <ConfirmDialog
        subject={confirmRevoke}
        title={t('admin.apiKeys.revokeTitle')}
        message={t('admin.apiKeys.revokeConfirm', {
          name: confirmRevoke?.name ?? '',
          prefix: confirmRevoke?.prefix ?? '',
        })}
        action={t('admin.apiKeys.revoke')}
        color="red"
        isBusy={revokeState.isLoading}
        onConfirm={(target) => void handleRevoke(target)}
        onCancel={() => setConfirmRevoke(null)}
      />
    </Stack>
  );
}
