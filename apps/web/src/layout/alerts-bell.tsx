import {
  ActionIcon,
  Anchor,
  Button,
  Checkbox,
  Group,
  Indicator,
  Popover,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import type { AlertInbox } from '@cm/contracts/alerts.ts';
import { IconBell } from '@tabler/icons-react';
import { useEffect, useState, type ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatRelative } from '@/lib/format.ts';
import { nativeLanguageNames, toLanguage } from '@/lib/languages.ts';
import {
  ALERTS_POLL_MS,
  useGetAlertPreferencesQuery,
  useGetAlertsQuery,
  useMarkAlertsReadMutation,
  useSetAlertPreferencesMutation,
  useSetLanguageMutation,
} from '@/lib/alerts-api.ts';
import { alertSentence } from './alert-text.ts';
import { MountOnUse } from './mount-on-use.tsx';
import classes from './alerts-bell.module.css';

/** How the person hears of each kind: in the app, by e-mail. */
function AlertPreferencesTable() {
  const { t } = useTranslation();
  const { data } = useGetAlertPreferencesQuery();
  const [save, state] = useSetAlertPreferencesMutation();
  if (!data) return null;
  return (
    <>
      <Table verticalSpacing={4} aria-label={t('alerts.prefs.title')} data-testid="alert-preferences">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('alerts.prefs.kind')}</Table.Th>
            <Table.Th>{t('alerts.prefs.inApp')}</Table.Th>
            <Table.Th>{t('alerts.prefs.email')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.items.map((item) => (
            <Table.Tr key={item.kind}>
              <Table.Td>{t(`alerts.kind.${item.kind}`)}</Table.Td>
              {(['inApp', 'email'] as const).map((how) => (
                <Table.Td key={how}>
                  <Checkbox
                    size="xs"
                    checked={item[how]}
                    // Without a mail server e-mail cannot be asked for (one asked before can be undone).
                    disabled={state.isLoading || (how === 'email' && !data.emailAvailable && !item.email)}
                    aria-label={`${t(`alerts.kind.${item.kind}`)}: ${t(`alerts.prefs.${how}`)}`}
                    onChange={(event) => void save([{ ...item, [how]: event.currentTarget.checked }])}
                  />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" data-testid="alert-email-language">
        {data.emailAvailable
          ? t('alerts.prefs.emailLanguage', { language: nativeLanguageNames[data.emailLanguage] })
          : t('alerts.prefs.noEmail')}
      </Text>
    </>
  );
}

/** Tells the server the language this person reads CM in (at sign-in and on each change): their e-mails follow it. */
function useRememberedLanguage() {
  const { i18n } = useTranslation();
  const [remember] = useSetLanguageMutation();
  const language = toLanguage(i18n.resolvedLanguage ?? i18n.language);
  useEffect(() => {
    void remember(language);
  }, [language, remember]);
}

/**
 * The bell in the navbar: how many alerts are unread, and the latest ones as sentences (when a meter
 * went silent, used too much, its register went down; when that cleared), with how to hear of them.
 */
export function AlertsBell() {
  const { t } = useTranslation();
  useRememberedLanguage();
  const { data } = useGetAlertsQuery(undefined, { pollingInterval: ALERTS_POLL_MS });
  const unread = data?.unread ?? 0;
  const label = unread > 0 ? t('alerts.openUnread', { count: unread }) : t('alerts.open');
  return (
    <MountOnUse
      idle={<Bell unread={unread} label={label} opened={false} />}
      active={(firstUse) => <AlertsPopover data={data} label={label} isOpenedAtOnce={firstUse === 'press'} />}
    />
  );
}

/** The bell with its count; as the pop-over's target it takes its ref and attributes too. */
function Bell({
  unread,
  label,
  opened,
  ...target
}: { unread: number; label: string; opened: boolean } & ComponentPropsWithRef<'button'>) {
  return (
    <Indicator
      label={unread > 99 ? '99+' : unread}
      size={16}
      disabled={unread === 0}
      color="red"
      offset={6}
      data-testid="alerts-count"
    >
      <ActionIcon
        {...target}
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={label}
        aria-expanded={opened}
        data-testid="alerts-bell"
      >
        <IconBell size={20} aria-hidden />
      </ActionIcon>
    </Indicator>
  );
}

function AlertsPopover({
  data,
  label,
  isOpenedAtOnce,
}: {
  data: AlertInbox | undefined;
  label: string;
  isOpenedAtOnce: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [opened, setOpened] = useState(isOpenedAtOnce);
  const [showPreferences, setShowPreferences] = useState(false);
  const [markRead] = useMarkAlertsReadMutation();
  const unread = data?.unread ?? 0;
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={380} shadow="md" withinPortal>
      <Popover.Target>
        <Tooltip label={label} disabled={opened}>
          <Bell unread={unread} label={label} opened={opened} onClick={() => setOpened((open) => !open)} />
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown role="dialog" aria-label={t('alerts.title')}>
        <Stack gap="xs" data-testid="alerts-list">
          <Group justify="space-between">
            <Text fw={600}>{t('alerts.title')}</Text>
            <Button
              size="compact-xs"
              variant="subtle"
              disabled={unread === 0}
              onClick={() => void markRead(undefined)}
            >
              {t('alerts.markAllRead')}
            </Button>
          </Group>
          {data && data.items.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('alerts.none')}
            </Text>
          ) : null}
          <ul className={classes.list}>
            {(data?.items ?? []).map((item) => (
              <li
                key={item.id}
                className={classes.item}
                data-unread={item.readAt === null}
                data-event={item.event}
              >
                <Anchor
                  component={Link}
                  to={`/check?meter=${encodeURIComponent(item.alert.meterNumber)}`}
                  size="sm"
                  c="var(--mantine-color-text)"
                  onClick={() => {
                    setOpened(false);
                    // Opening an alert reads it (issue 34, low).
                    if (item.readAt === null) void markRead([item.id]);
                  }}
                >
                  {alertSentence(item, t, i18n.language)}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {formatRelative(item.createdAt, i18n.language)}
                </Text>
              </li>
            ))}
          </ul>
          <Button size="compact-xs" variant="subtle" onClick={() => setShowPreferences((shown) => !shown)}>
            {t('alerts.prefs.title')}
          </Button>
          {showPreferences ? <AlertPreferencesTable /> : null}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
