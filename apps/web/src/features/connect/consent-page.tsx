import { Alert, Button, Checkbox, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PRODUCT_NAME } from '@/lib/config.ts';
import { toFailure } from '@/lib/http-client.ts';
import {
  useAllowConsentMutation,
  useGetConsentRequestQuery,
  useRefuseConsentMutation,
} from './connect-api.ts';

/** The durations offered, in months: up to three years. */
const DURATIONS = [1, 3, 6, 12, 24, 36];

/** A year before today, YYYY-MM-DD (UTC): the first day offered. */
function aYearAgo(): string {
  const day = new Date();
  day.setUTCFullYear(day.getUTCFullYear() - 1);
  return day.toISOString().slice(0, 10);
}

/**
 * The consent page of Connect My Data (issue 37): an app sent the customer here through CM's OAuth
 * server. It shows who asks and for which data; the customer picks meters, the first day of data
 * and how long the app may read, then allows or refuses. Either way the browser goes back to the
 * app through the OAuth server, which hands it a code or `access_denied`.
 */
export function ConsentPage() {
  const { t } = useTranslation();
  const uid = useParams().uid ?? '';
  const query = useGetConsentRequestQuery(uid);
  const [allow, allowState] = useAllowConsentMutation();
  const [refuse, refuseState] = useRefuseConsentMutation();
  const [meters, setMeters] = useState<string[]>([]);
  const [from, setFrom] = useState(aYearAgo);
  const [months, setMonths] = useState('12');
  const [isMetersMissing, setMetersMissing] = useState(false);
  const request = query.data;
  useDocumentTitle(`${t('connect.consent.documentTitle')} · ${PRODUCT_NAME}`);
  const failure = toFailure(query.error ?? allowState.error ?? refuseState.error);
  const isBusy = allowState.isLoading || refuseState.isLoading;

  async function handleAllow(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMetersMissing(meters.length === 0);
    if (meters.length === 0) return;
    const done = await allow({ uid, body: { meterNumbers: meters, from, months: Number(months) } }).unwrap();
    window.location.assign(done.redirectTo);
  }

  async function handleRefuse() {
    const done = await refuse(uid).unwrap();
    window.location.assign(done.redirectTo);
  }

  if (failure && !request)
    return (
      <Alert color="red" role="alert" title={t('connect.consent.documentTitle')}>
        {failure.status === 404
          ? t('connect.consent.gone')
          : (failure.message ?? t('connect.consent.failed'))}
      </Alert>
    );
  if (!request) return <Text role="status">{t('common.loading')}</Text>;

  return (
    <form onSubmit={(event) => void handleAllow(event)}>
      <Stack gap="md" maw={640}>
        <div>
          <Title order={1}>{t('connect.consent.title', { app: request.app.name })}</Title>
          <Text c="dimmed" size="sm">
            {t('connect.consent.contact', { contact: request.app.contact })}
          </Text>
        </div>
        <div>
          <Text fw={600}>{t('connect.consent.dataAsked')}</Text>
          <Text size="sm" data-testid="consent-kinds">
            {request.dataKinds.map((kind) => t(`accessLog.kinds.${kind}`)).join(', ')}
          </Text>
        </div>
        <Checkbox.Group
          label={t('connect.consent.meters')}
          description={t('connect.consent.metersHint')}
          value={meters}
          onChange={setMeters}
          error={isMetersMissing ? t('connect.consent.metersRequired') : undefined}
        >
          <Stack gap={6} mt="xs">
            {request.meters.map((meter) => (
              <Checkbox
                key={meter.meterNumber}
                value={meter.meterNumber}
                label={t('connect.consent.meter', {
                  meterNumber: meter.meterNumber,
                  location: meter.locationName,
                })}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        {request.meters.length === 0 ? <Text c="dimmed">{t('connect.consent.noMeters')}</Text> : null}
        <Group grow align="flex-start">
          <TextInput
            type="date"
            label={t('connect.consent.from')}
            description={t('connect.consent.fromHint')}
            value={from}
            onChange={(event) => setFrom(event.currentTarget.value)}
            required
          />
          <Select
            label={t('connect.consent.duration')}
            description={t('connect.consent.durationHint')}
            data={DURATIONS.filter((count) => count <= request.maxMonths).map((count) => ({
              value: String(count),
              label: t('connect.consent.months', { count }),
            }))}
            value={months}
            onChange={(value) => setMonths(value ?? '12')}
            allowDeselect={false}
          />
        </Group>
        {failure ? (
          <Alert color="red" role="alert">
            {failure.status === 404
              ? t('connect.consent.gone')
              : (failure.message ?? t('connect.consent.failed'))}
          </Alert>
        ) : null}
        <Text size="sm">{t('connect.consent.revokeNote')}</Text>
        <Group>
          <Button type="submit" loading={allowState.isLoading} disabled={isBusy} data-testid="consent-allow">
            {t('connect.consent.allow')}
          </Button>
          <Button
            variant="default"
            loading={refuseState.isLoading}
            disabled={isBusy}
            onClick={() => void handleRefuse()}
            data-testid="consent-refuse"
          >
            {t('connect.consent.refuse')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
