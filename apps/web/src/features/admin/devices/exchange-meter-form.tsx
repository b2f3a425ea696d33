import { Alert, Stack, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { AdminDevice, AdminMeterFields } from '@cm/contracts/admin.ts';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatZonedDateTime } from '@/lib/format.ts';
import { useExchangeMeterMutation } from './devices-api.ts';
import { FormFooter } from '../forms/form-footer.tsx';
import { KwhInput } from '../forms/kwh-input.tsx';
import { useAdminForm } from '../forms/use-admin-form.ts';
import { instantToZonedLocal } from '../zoned-time.ts';
import { validateExchange, type ExchangeFormValues } from './meter-form-values.ts';

const FIELDS = ['at', 'finalRegister', 'newMeterNumber', 'newStartRegister'] as const;

/**
 * Exchange a meter: the old one is closed at the instant with its final register, the new one
 * takes its position from that instant with its start register, so consumption stays continuous.
 */
export function ExchangeMeterForm({
  device,
  timeZone,
  onDone,
}: {
  device: AdminDevice;
  timeZone: string;
  onDone: () => void;
}) {
  if (!device.meter) return null;
  return <ExchangeForm meter={device.meter} timeZone={timeZone} onDone={onDone} />;
}

/** What the exchange checks need to know: the meter, its zone, and the time of the check. */
function contextOf(meter: AdminMeterFields, timeZone: string) {
  return {
    meterNumber: meter.meterNumber,
    timeZone,
    registerDigits: meter.registerDigits,
    installedAt: meter.installedAt,
    hasRegisterReadings: meter.hasRegisterReadings,
    now: Date.now(),
  };
}

function ExchangeForm({
  meter,
  timeZone,
  onDone,
}: {
  meter: AdminMeterFields;
  timeZone: string;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { meterNumber } = meter;
  const [initialValues] = useState<ExchangeFormValues>(() => ({
    at: instantToZonedLocal(Date.now(), timeZone),
    finalRegister: '',
    newMeterNumber: '',
    newStartRegister: 0,
  }));
  const [exchangeMeter, state] = useExchangeMeterMutation();
  const { form, failure, onSubmit } = useAdminForm({
    initialValues,
    check: (values: ExchangeFormValues) => validateExchange(values, contextOf(meter, timeZone)),
    messageValues: { digits: meter.registerDigits },
    fields: FIELDS,
    send: async (body) => {
      const answer = await exchangeMeter({ meterNumber, body }).unwrap();
      toast.success(
        t('admin.exchange.done', {
          oldMeter: meterNumber,
          newMeter: answer.newMeter.meter?.meterNumber ?? '',
        }),
      );
      onDone();
    },
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Alert variant="light" icon={<IconInfoCircle aria-hidden />}>
          {t('admin.exchange.explain', {
            meterNumber,
            meterInd: meter.meterInd,
            installed: formatZonedDateTime(meter.installedAt, i18n.language, timeZone),
            multiplier: formatNumber(meter.multiplier, i18n.language),
          })}
        </Alert>
        <TextInput
          type="datetime-local"
          label={t('admin.exchange.at')}
          description={t('admin.devices.form.zoneHint', { zone: timeZone })}
          {...form.getInputProps('at')}
          required
          data-autofocus
        />
        {meter.hasRegisterReadings ? (
          <KwhInput
            label={t('admin.exchange.finalRegister', { meterNumber })}
            description={t('admin.exchange.registerHint')}
            {...form.getInputProps('finalRegister')}
            required
          />
        ) : null}
        <TextInput
          label={t('admin.exchange.newMeterNumber')}
          {...form.getInputProps('newMeterNumber')}
          required
          autoComplete="off"
          spellCheck={false}
        />
        <KwhInput
          label={t('admin.exchange.newStartRegister')}
          description={t('admin.exchange.registerHint')}
          {...form.getInputProps('newStartRegister')}
          required
        />
        <FormFooter
          failure={failure}
          onCancel={onDone}
          isSaving={state.isLoading}
          submitLabel={t('admin.exchange.submit')}
        />
      </Stack>
    </form>
  );
}
