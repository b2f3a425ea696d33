import { ActionIcon, Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { ownAlertKinds, type AlertRule } from '@cm/contracts/alerts.ts';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useAddOwnAlertRuleMutation,
  useGetOwnAlertRulesQuery,
  useRemoveOwnAlertRuleMutation,
  useSetOwnAlertThresholdMutation,
} from '@/lib/alerts-api.ts';
import { formatEnergy, formatMoney } from '@/lib/format.ts';
import { toFailure } from '@/lib/http-client.ts';
import { SectionPanel } from '../ui/section-panel.tsx';

type OwnKind = (typeof ownAlertKinds)[number];

/**
 * A threshold in the browser's own number field: a positive number (the server takes up to
 * 1,000,000), decimals allowed. Mantine's NumberInput and its formatting library were 10 KB gzip
 * more in every meter view, for two fields (issue 38).
 */
const THRESHOLD_FIELD = {
  type: 'number',
  min: 0,
  max: 1_000_000,
  step: 'any',
  inputMode: 'decimal',
} as const;

/**
 * The alerts a customer sets on a meter for themselves (issue 34): "tell me when this bill passes
 * €80", "tell me when a day is above 30 kWh". Only they see them; they hear of them in the bell
 * and by e-mail as they chose there. A budget needs a tariff (`currency` null: none).
 */
export const OwnAlertsPanel = memo(function OwnAlertsPanel({
  meterNumber,
  currency,
}: {
  meterNumber: string;
  currency: string | null;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const rules = useGetOwnAlertRulesQuery();
  const [addRule, addState] = useAddOwnAlertRuleMutation();
  const [setThreshold, setState] = useSetOwnAlertThresholdMutation();
  const [removeRule, removeState] = useRemoveOwnAlertRuleMutation();
  const kinds = ownAlertKinds.filter((kind) => kind !== 'billAbove' || currency !== null);
  const [kind, setKind] = useState<OwnKind>(kinds[0] ?? 'dailyAbove');
  const [threshold, setNewThreshold] = useState('');
  const [edits, setEdits] = useState<Record<number, string>>({});
  const mine = (rules.data ?? []).filter((rule) => rule.meterNumber === meterNumber);
  const failure = toFailure(addState.error ?? setState.error ?? removeState.error ?? rules.error);

  const sentence = (rule: Pick<AlertRule, 'kind' | 'threshold'>) =>
    rule.kind === 'billAbove'
      ? t('alerts.own.rule.billAbove', {
          amount: formatMoney(rule.threshold ?? 0, currency ?? 'EUR', locale),
        })
      : t('alerts.own.rule.dailyAbove', { energy: formatEnergy(rule.threshold ?? 0, locale, 3, 0) });
  const fieldLabel = (of: OwnKind) =>
    of === 'billAbove' ? t('alerts.own.amount', { currency: currency ?? '' }) : t('alerts.own.kwh');

  async function handleAdd(event: React.FormEvent) {
    event.preventDefault();
    const value = Number(threshold);
    if (threshold === '' || !(value > 0)) return;
    await addRule({ meterNumber, kind, threshold: value })
      .unwrap()
      .then(() => setNewThreshold(''))
      .catch(() => undefined);
  }

  return (
    <SectionPanel labelledBy="cm-own-alerts-title" noPrint>
      <Stack gap="sm" data-testid="own-alerts">
        <div>
          <Title order={2} size="h4" id="cm-own-alerts-title">
            {t('alerts.own.title')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('alerts.own.intro')}
          </Text>
        </div>
        {failure ? (
          <Text size="sm" c="red" role="alert" data-testid="own-alerts-error">
            {failure.message ?? t('check.errors.failed')}
          </Text>
        ) : null}
        {mine.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('alerts.own.none')}
          </Text>
        ) : (
          <Table withRowBorders={false} verticalSpacing={4}>
            <Table.Tbody>
              {mine.map((rule) => {
                const edit = edits[rule.id] ?? String(rule.threshold ?? '');
                return (
                  <Table.Tr key={rule.id} data-testid="own-alert-row">
                    <Table.Td>
                      <Text size="sm">{sentence(rule)}</Text>
                      {rule.openEpisodes > 0 ? (
                        <Text size="xs" c="orange.9" fw={600}>
                          {t('alerts.own.going')}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td w={150}>
                      <TextInput
                        {...THRESHOLD_FIELD}
                        size="xs"
                        aria-label={t('alerts.own.change', { rule: sentence(rule) })}
                        value={edit}
                        onChange={(event) => {
                          const { value } = event.currentTarget;
                          setEdits((all) => ({ ...all, [rule.id]: value }));
                        }}
                        onBlur={() => {
                          const value = Number(edit);
                          if (value > 0 && value !== rule.threshold)
                            void setThreshold({ id: rule.id, threshold: value });
                        }}
                      />
                    </Table.Td>
                    <Table.Td w={40}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('alerts.own.remove', { rule: sentence(rule) })}
                        onClick={() => void removeRule(rule.id)}
                      >
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        <form onSubmit={(event) => void handleAdd(event)} noValidate data-testid="own-alert-form">
          <Group align="flex-end" gap="sm" wrap="wrap">
            <NativeSelect
              label={t('alerts.own.kind')}
              value={kind}
              onChange={(event) =>
                setKind(kinds.find((k) => k === event.currentTarget.value) ?? 'dailyAbove')
              }
              data={kinds.map((value) => ({ value, label: t(`alerts.own.kinds.${value}`) }))}
            />
            <TextInput
              {...THRESHOLD_FIELD}
              label={fieldLabel(kind)}
              value={threshold}
              onChange={(event) => setNewThreshold(event.currentTarget.value)}
              w={160}
            />
            <Button
              type="submit"
              leftSection={<IconPlus size={16} aria-hidden />}
              loading={addState.isLoading}
            >
              {t('alerts.own.add')}
            </Button>
          </Group>
          {currency === null ? (
            <Text size="xs" c="dimmed" mt={4}>
              {t('alerts.own.noTariff')}
            </Text>
          ) : null}
        </form>
      </Stack>
    </SectionPanel>
  );
});
