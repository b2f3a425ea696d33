import { Stack, Text, Title } from '@mantine/core';
import { mailSetupSchema, type MailSetup } from '@cm/contracts/alerts.ts';
import { useTranslation } from 'react-i18next';
import { adminApi } from './admin-api.ts';
import { AdminPanel } from './admin-ui.tsx';

const mailApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getMailSetup: build.query<MailSetup, void>({
      query: () => ({ url: '/api/admin/mail' }),
      transformResponse: (raw: unknown) => mailSetupSchema.parse(raw),
    }),
  }),
});

/**
 * Whether alert e-mails can go out (issue 34.14): without a mail server (CM_SMTP_URL) none is
 * sent, and people are not offered e-mail by default; with one, which server and sender, and the
 * e-mails waiting or given up on, with the server's latest refusal.
 */
export function MailSetupPanel() {
  const { t } = useTranslation();
  const { data } = mailApi.useGetMailSetupQuery();
  if (!data) return null;
  return (
    <AdminPanel labelledBy="cm-mail-title">
      <Stack gap="xs" data-testid="mail-setup">
        <Title order={2} size="h4" id="cm-mail-title">
          {t('admin.mail.title')}
        </Title>
        {data.configured ? (
          <Text size="sm">
            {t('admin.mail.configured', { server: data.server ?? '', from: data.from ?? '' })}
          </Text>
        ) : (
          <Text size="sm" c="orange.9" fw={600}>
            {t('admin.mail.notConfigured')}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {t('admin.mail.queue', { pending: data.pending, failed: data.failed })}
        </Text>
        {data.lastError ? (
          <Text size="sm" c="dimmed">
            {t('admin.mail.lastError', { error: data.lastError })}
          </Text>
        ) : null}
      </Stack>
    </AdminPanel>
  );
}
