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
  Textarea,
  Title,
} from '@mantine/core';
import {
  appUriProblem,
  connectDataKinds,
  type ConnectApp,
  type ConnectDataKind,
} from '@cm/contracts/connect.ts';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/lib/format.ts';
import { toFailure, type Failure } from '@/lib/http-client.ts';
import {
  useCreateConnectAppMutation,
  useListConnectAppsQuery,
  useRemoveConnectAppMutation,
  useSetConnectAppStateMutation,
} from './connect-apps-api.ts';
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
import { ConnectGrantsPanel } from './connect-grants-panel.tsx';
import classes from './admin.module.css';

function isKind(value: string): value is ConnectDataKind {
  return connectDataKinds.some((kind) => kind === value);
}

/** The URIs typed one per line, blank lines left out. */
const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

interface FormErrors {
  name?: string;
  contact?: string;
  redirectUris?: string;
  dataKinds?: string;
  notificationUri?: string;
}

/**
 * Third-party apps (Green Button Connect My Data, issue 37): register an app (its client secret is
 * shown once), list them, suspend, resume or remove one.
 */
export function ConnectAppsPage() {
  const { t, i18n } = useTranslation();
  const query = useListConnectAppsQuery();
  const [createApp, createState] = useCreateConnectAppMutation();
  const [setState] = useSetConnectAppStateMutation();
  const [removeApp, removeState] = useRemoveConnectAppMutation();
  const [name, setName] = useState('');
  const [contact, setContact] = useState('');
  const [redirectUris, setRedirectUris] = useState('');
  const [notificationUri, setNotificationUri] = useState('');
  const [kinds, setKinds] = useState<ConnectDataKind[]>(['intervals']);
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [created, setCreated] = useState<{ app: ConnectApp; clientSecret: string } | null>(null);
  const [confirmRemove, setConfirmRemove] = useState<ConnectApp | null>(null);

  function problems(): FormErrors {
    const uris = linesOf(redirectUris);
    const badUri = uris.find((uri) => appUriProblem(uri) !== null);
    return {
      ...(name.trim() === '' ? { name: t('admin.connect.nameRequired') } : {}),
      ...(contact.trim() === '' ? { contact: t('admin.connect.contactRequired') } : {}),
      ...(uris.length === 0
        ? { redirectUris: t('admin.connect.redirectRequired') }
        : badUri
          ? { redirectUris: t('admin.connect.uriInvalid', { uri: badUri }) }
          : {}),
      ...(kinds.length === 0 ? { dataKinds: t('admin.connect.kindsRequired') } : {}),
      ...(notificationUri.trim() !== '' && appUriProblem(notificationUri.trim()) !== null
        ? { notificationUri: t('admin.connect.uriInvalid', { uri: notificationUri.trim() }) }
        : {}),
    };
  }

  async function handleCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = problems();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setFailure(null);
    try {
      const result = await createApp({
        name: name.trim(),
        contact: contact.trim(),
        redirectUris: linesOf(redirectUris),
        dataKinds: kinds,
        notificationUri: notificationUri.trim() === '' ? null : notificationUri.trim(),
      }).unwrap();
      setCreated(result);
      setName('');
      setContact('');
      setRedirectUris('');
      setNotificationUri('');
    } catch (error) {
      setFailure(toFailure(error));
    }
  }

  function toastFailure(error: unknown) {
    const found = toFailure(error);
    if (found) {
      const text = describeFailure(found);
      toast.error(t(text.key, text.values));
    }
  }

  async function handleState(app: ConnectApp) {
    const change = app.status === 'active' ? 'suspend' : 'resume';
    try {
      await setState({ id: app.id, change }).unwrap();
      toast.success(
        t(change === 'suspend' ? 'admin.connect.nowSuspended' : 'admin.connect.resumed', { name: app.name }),
      );
    } catch (error) {
      toastFailure(error);
    }
  }

  async function handleRemove(app: ConnectApp) {
    try {
      await removeApp(app.id).unwrap();
      toast.success(t('admin.connect.removed', { name: app.name }));
    } catch (error) {
      toastFailure(error);
    } finally {
      setConfirmRemove(null);
    }
  }

  const apps = query.data ?? [];

  return (
    <Stack gap="md" className={classes.page}>
      <AdminPageHeader title={t('admin.connect.title')} intro={t('admin.connect.intro')} />
      <AdminPanel labelledBy="cm-new-app-title">
        <form onSubmit={handleCreate} noValidate>
          <Stack gap="sm">
            <Title order={2} size="h4" id="cm-new-app-title">
              {t('admin.connect.create')}
            </Title>
            <TextInput
              label={t('admin.connect.name')}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={errors.name}
              maxLength={100}
              required
              maw={480}
              autoComplete="off"
            />
            <TextInput
              label={t('admin.connect.contact')}
              description={t('admin.connect.contactHint')}
              value={contact}
              onChange={(event) => setContact(event.currentTarget.value)}
              error={errors.contact}
              maxLength={200}
              required
              maw={480}
              autoComplete="off"
            />
            <Textarea
              label={t('admin.connect.redirectUris')}
              description={t('admin.connect.redirectUrisHint')}
              value={redirectUris}
              onChange={(event) => setRedirectUris(event.currentTarget.value)}
              error={errors.redirectUris}
              required
              autosize
              minRows={2}
              maw={640}
            />
            <Checkbox.Group
              label={t('admin.connect.dataKinds')}
              value={kinds}
              onChange={(values) => setKinds(values.filter(isKind))}
              error={errors.dataKinds}
              required
            >
              <Group gap="md" mt={6}>
                {connectDataKinds.map((kind) => (
                  <Checkbox key={kind} value={kind} label={t(`accessLog.kinds.${kind}`)} />
                ))}
              </Group>
            </Checkbox.Group>
            <TextInput
              label={t('admin.connect.notificationUri')}
              description={t('admin.connect.notificationUriHint')}
              value={notificationUri}
              onChange={(event) => setNotificationUri(event.currentTarget.value)}
              error={errors.notificationUri}
              maxLength={500}
              maw={640}
              autoComplete="off"
            />
            <CreateFooter
              failure={failure}
              label={t('admin.connect.createAction')}
              isBusy={createState.isLoading}
            />
          </Stack>
        </form>
      </AdminPanel>

      <AdminListPanel id="cm-apps-title" title={t('admin.connect.list')} failure={toFailure(query.error)}>
        <AdminTable
          headers={[
            t('admin.connect.name'),
            t('admin.connect.clientId'),
            t('admin.connect.dataKinds'),
            t('admin.connect.redirectUris'),
            t('admin.connect.created'),
          ]}
          hasActions
          isBusy={query.isFetching}
          isEmpty={apps.length === 0}
          emptyText={t('admin.connect.empty')}
          minWidth={820}
        >
          {apps.map((app) => (
            <Table.Tr key={app.id} data-testid={`connect-app-${app.name}`}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {app.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {app.contact}
                </Text>
                {app.status === 'suspended' ? (
                  <Badge variant="outline" color="orange" size="sm">
                    {t('admin.connect.suspended')}
                  </Badge>
                ) : null}
              </Table.Td>
              <Table.Td className={classes.mono}>{app.clientId}</Table.Td>
              <Table.Td>{app.dataKinds.map((kind) => t(`accessLog.kinds.${kind}`)).join(', ')}</Table.Td>
              <Table.Td>
                {app.redirectUris.map((uri) => (
                  <Text key={uri} size="xs" className={classes.mono}>
                    {uri}
                  </Text>
                ))}
              </Table.Td>
              <Table.Td className={classes.nowrap}>{formatDate(app.createdAt, i18n.language)}</Table.Td>
              <Table.Td className={classes.nowrap}>
                <Group gap={6} wrap="nowrap">
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => void handleState(app)}
                    aria-label={t(
                      app.status === 'active' ? 'admin.connect.suspendNamed' : 'admin.connect.resumeNamed',
                      { name: app.name },
                    )}
                  >
                    {t(app.status === 'active' ? 'admin.connect.suspend' : 'admin.connect.resume')}
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() => setConfirmRemove(app)}
                    aria-label={t('admin.connect.removeNamed', { name: app.name })}
                  >
                    {t('admin.connect.remove')}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </AdminTable>
      </AdminListPanel>

      <ConnectGrantsPanel />

      <Modal
        closeButtonProps={{ 'aria-label': t('common.close') }}
        opened={created !== null}
        onClose={() => setCreated(null)}
        title={t('admin.connect.createdTitle', { name: created?.app.name ?? '' })}
        centered
        size="lg"
        closeOnClickOutside={false}
      >
        {created ? (
          <Stack gap="sm">
            <Text size="sm">{t('admin.connect.clientIdIs', { clientId: created.app.clientId })}</Text>
            <OneTimeSecret
              label={t('admin.connect.clientSecret')}
              warning={t('admin.connect.secretWarning')}
              value={created.clientSecret}
              onDone={() => setCreated(null)}
            />
          </Stack>
        ) : null}
      </Modal>

      <ConfirmDialog
        subject={confirmRemove}
        title={t('admin.connect.removeTitle')}
        message={t('admin.connect.removeConfirm', { name: confirmRemove?.name ?? '' })}
        action={t('admin.connect.remove')}
        color="red"
        isBusy={removeState.isLoading}
        onConfirm={(target) => void handleRemove(target)}
        onCancel={() => setConfirmRemove(null)}
      />
    </Stack>
  );
}
