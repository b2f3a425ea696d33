import {
  Input,
  Alert,
  Button,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { AdminDevice, DeviceNode } from '@cm/contracts/admin.ts';
import {
  DevicePriority,
  DeviceType,
  deviceStatuses,
  type DevicePriorityId,
  type DeviceStatus,
} from '@cm/contracts/enums.ts';
import { useState, type FormEvent, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { toFailure, type Failure } from '@/lib/http-client.ts';
import {
  useCreateDeviceMutation,
  useCreateMeterMutation,
  useExchangeMeterMutation,
  useMoveMeterMutation,
  useUpdateDeviceMutation,
  useUpdateMeterMutation,
} from './api.ts';
import { FailureAlert, useFailureText } from './admin-ui.tsx';
import {
  validateExchange,
  validateNewMeter,
  type ExchangeFormErrors,
  type ExchangeFormValues,
  type MeterFormErrors,
  type MeterFormValues,
} from './device-form.ts';
import {
  devicePriorityLabels,
  deviceStatusLabels,
  priorityIds,
  toPriorityId,
  toStatus,
} from '@/components/device-status.ts';
import { deviceName, devicesOfType } from './device-tree.ts';
import { fieldFailure } from './failure-message.ts';
import { instantToZonedLocal } from './zoned-time.ts';

function useFieldErrors(failure: Failure | null) {
  const failureText = useFailureText();
  return (param: string) => failureText(fieldFailure(failure, [param]));
}

function FormButtons({
  onCancel,
  isSaving,
  submitLabel,
}: {
  onCancel: () => void;
  isSaving: boolean;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel}>
        {t('admin.actions.cancel')}
      </Button>
      <Button type="submit" loading={isSaving}>
        {submitLabel}
      </Button>
    </Group>
  );
}

function PriorityStatusFields(props: {
  priority: DevicePriorityId;
  status: DeviceStatus;
  onPriority: (value: DevicePriorityId) => void;
  onStatus: (value: DeviceStatus) => void;
  serverError: (param: string) => string | null;
}) {
  const { t } = useTranslation();
  return (
    <Group grow align="flex-start" gap="sm" wrap="wrap">
      <Select
        label={t('admin.devices.fields.priority')}
        data={priorityIds.map((id) => ({ value: String(id), label: t(devicePriorityLabels[id].key) }))}
        value={String(props.priority)}
        onChange={(value) => props.onPriority(toPriorityId(Number(value)))}
        allowDeselect={false}
        error={props.serverError('priority')}
        miw={150}
      />
      <Select
        label={t('admin.devices.fields.status')}
        data={deviceStatuses.map((status) => ({ value: status, label: t(deviceStatusLabels[status].key) }))}
        value={props.status}
        onChange={(value) => props.onStatus(toStatus(value) ?? 'active')}
        allowDeselect={false}
        error={props.serverError('status')}
        miw={150}
      />
    </Group>
  );
}

function useSubmit<T>(run: () => Promise<T>, successText: string, onDone: () => void) {
  const [failure, setFailure] = useState<Failure | null>(null);
  async function submit() {
    setFailure(null);
    try {
      await run();
      toast.success(successText);
      onDone();
    } catch (error) {
      setFailure(toFailure(error));
    }
  }
  return { failure, submit };
}

function OtherFailure({
  failure,
  fields,
}: {
  failure: Failure | null;
  fields: readonly string[];
}): ReactNode {
  if (!failure || (failure.param !== null && fields.includes(failure.param))) return null;
  return <FailureAlert failure={failure} />;
}

interface LocationContext {
  locationId: number;
  timeZone: string;
  roots: readonly DeviceNode[];
}

/** A new AccessPoint or Cube (a Cube hangs from an AccessPoint of the same location). */
export function NewDeviceForm({ locationId, roots, onDone }: LocationContext & { onDone: () => void }) {
  const { t } = useTranslation();
  const [type, setType] = useState<1 | 2>(DeviceType.AccessPoint);
  const [serial, setSerial] = useState('');
  const [parentId, setParentId] = useState<string | null>(null);
  const [priority, setPriority] = useState<DevicePriorityId>(DevicePriority.New);
  const [status, setStatus] = useState<DeviceStatus>('active');
  const [serialMissing, setSerialMissing] = useState(false);
  const [createDevice, state] = useCreateDeviceMutation();
  const accessPoints = devicesOfType(roots, DeviceType.AccessPoint);
  const { failure, submit } = useSubmit(
    () =>
      createDevice({
        type,
        serial: serial.trim(),
        locationId,
        parentId: type === DeviceType.Cube && parentId ? Number(parentId) : null,
        priority,
        status,
      }).unwrap(),
    t('admin.devices.created'),
    onDone,
  );
  const serverError = useFieldErrors(failure);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSerialMissing(serial.trim() === '');
    if (serial.trim() === '') return;
    void submit();
  }

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <Stack gap={4}>
          <Input.Label id="cm-device-type-label">{t('admin.devices.fields.type')}</Input.Label>
          <SegmentedControl
            aria-labelledby="cm-device-type-label"
            value={String(type)}
            onChange={(value) =>
              setType(value === String(DeviceType.Cube) ? DeviceType.Cube : DeviceType.AccessPoint)
            }
            data={[
              { value: String(DeviceType.AccessPoint), label: t('admin.devices.type.accessPoint') },
              { value: String(DeviceType.Cube), label: t('admin.devices.type.cube') },
            ]}
          />
        </Stack>
        <TextInput
          label={t('admin.devices.fields.serial')}
          value={serial}
          onChange={(event) => setSerial(event.currentTarget.value)}
          error={serialMissing ? t('admin.devices.form.serialRequired') : serverError('serial')}
          required
          autoComplete="off"
          spellCheck={false}
          data-autofocus
        />
        {type === DeviceType.Cube ? (
          <Select
            label={t('admin.devices.fields.parent')}
            description={t('admin.devices.form.parentHint')}
            data={accessPoints.map((ap) => ({ value: String(ap.id), label: deviceName(ap) }))}
            value={parentId}
            onChange={setParentId}
            clearable
            placeholder={t('admin.devices.form.noParent')}
            error={serverError('parentId')}
          />
        ) : null}
        <PriorityStatusFields
          priority={priority}
          status={status}
          onPriority={setPriority}
          onStatus={setStatus}
          serverError={serverError}
        />
        <OtherFailure failure={failure} fields={['serial', 'parentId', 'priority', 'status']} />
        <FormButtons
          onCancel={onDone}
          isSaving={state.isLoading}
          submitLabel={t('admin.devices.form.create')}
        />
      </Stack>
    </form>
  );
}

/** A new meter at the location, optionally under one of its Cubes. */
export function NewMeterForm({
  locationId,
  timeZone,
  roots,
  onDone,
}: LocationContext & { onDone: () => void }) {
  const { t } = useTranslation();
  const cubes = devicesOfType(roots, DeviceType.Cube);
  const usedInds = devicesOfType(roots, DeviceType.Meter)
    .filter((m) => m.meter && !m.meter.removedAt)
    .map((m) => m.meter?.meterInd ?? 0);
  const [values, setValues] = useState<MeterFormValues>(() => ({
    meterNumber: '',
    meterInd: usedInds.length === 0 ? 1 : Math.max(...usedInds) + 1,
    cubeId: null,
    multiplier: 1,
    registerDigits: 6,
    intervalMinutes: 15,
    installedAt: instantToZonedLocal(Date.now(), timeZone),
    priority: DevicePriority.New,
    status: 'active',
  }));
  const [errors, setErrors] = useState<MeterFormErrors>({});
  const [createMeter, state] = useCreateMeterMutation();
  const [failure, setFailure] = useState<Failure | null>(null);
  const serverError = useFieldErrors(failure);
  const set = <K extends keyof MeterFormValues>(field: K, value: MeterFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));
  const error = (field: keyof MeterFormValues) => (errors[field] ? t(errors[field]) : serverError(field));

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = validateNewMeter(values, { locationId, timeZone });
    setErrors(result.errors);
    if (!result.body) return;
    setFailure(null);
    try {
      await createMeter(result.body).unwrap();
      toast.success(t('admin.devices.meterCreated'));
      onDone();
    } catch (caught) {
      setFailure(toFailure(caught));
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('admin.devices.fields.meterNumber')}
          value={values.meterNumber}
          onChange={(event) => set('meterNumber', event.currentTarget.value)}
          error={error('meterNumber')}
          required
          autoComplete="off"
          spellCheck={false}
          data-autofocus
        />
        <Group grow align="flex-start" gap="sm" wrap="wrap">
          <NumberInput
            label={t('admin.devices.fields.meterInd')}
            description={t('admin.devices.form.meterIndHint')}
            value={values.meterInd}
            onChange={(value) => set('meterInd', value)}
            error={error('meterInd')}
            min={1}
            max={9999}
            allowDecimal={false}
            required
            miw={140}
          />
          <Select
            label={t('admin.devices.fields.cube')}
            data={cubes.map((cube) => ({ value: String(cube.id), label: deviceName(cube) }))}
            value={values.cubeId}
            onChange={(value) => set('cubeId', value)}
            clearable
            placeholder={t('admin.devices.form.noCube')}
            error={serverError('cubeId')}
            miw={160}
          />
        </Group>
        <Group grow align="flex-start" gap="sm" wrap="wrap">
          <NumberInput
            label={t('admin.devices.fields.multiplier')}
            value={values.multiplier}
            onChange={(value) => set('multiplier', value)}
            error={error('multiplier')}
            min={1}
            allowDecimal={false}
            miw={110}
          />
          <NumberInput
            label={t('admin.devices.fields.registerDigits')}
            value={values.registerDigits}
            onChange={(value) => set('registerDigits', value)}
            error={error('registerDigits')}
            min={3}
            max={12}
            allowDecimal={false}
            miw={110}
          />
          <NumberInput
            label={t('admin.devices.fields.intervalMinutes')}
            value={values.intervalMinutes}
            onChange={(value) => set('intervalMinutes', value)}
            error={error('intervalMinutes')}
            min={1}
            max={1440}
            allowDecimal={false}
            miw={110}
          />
        </Group>
        <TextInput
          type="datetime-local"
          label={t('admin.devices.fields.installedAt')}
          description={t('admin.devices.form.zoneHint', { zone: timeZone })}
          value={values.installedAt}
          onChange={(event) => set('installedAt', event.currentTarget.value)}
          error={error('installedAt')}
          required
        />
        <PriorityStatusFields
          priority={values.priority}
          status={values.status}
          onPriority={(v) => set('priority', v)}
          onStatus={(v) => set('status', v)}
          serverError={serverError}
        />
        <OtherFailure
          failure={failure}
          fields={[
            'meterNumber',
            'meterInd',
            'cubeId',
            'multiplier',
            'registerDigits',
            'intervalMinutes',
            'installedAt',
            'priority',
            'status',
          ]}
        />
        <FormButtons
          onCancel={onDone}
          isSaving={state.isLoading}
          submitLabel={t('admin.devices.form.createMeter')}
        />
      </Stack>
    </form>
  );
}

/** Edit a device: serial and parent (not for meters, whose parent changes by moving), priority and status. */
export function EditDeviceForm({
  device,
  roots,
  onDone,
}: {
  device: AdminDevice;
  roots: readonly DeviceNode[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [serial, setSerial] = useState(device.serial);
  const [parentId, setParentId] = useState<string | null>(
    device.parentId === null ? null : String(device.parentId),
  );
  const [priority, setPriority] = useState<DevicePriorityId>(toPriorityId(device.priority));
  const [status, setStatus] = useState<DeviceStatus>(device.status);
  const [multiplier, setMultiplier] = useState<number | string>(device.meter?.multiplier ?? 1);
  const [updateDevice, deviceState] = useUpdateDeviceMutation();
  const [updateMeter, meterState] = useUpdateMeterMutation();
  const accessPoints = devicesOfType(roots, DeviceType.AccessPoint);
  const { failure, submit } = useSubmit(
    async () => {
      if (device.meter) {
        const body = {
          ...(priority !== device.priority ? { priority } : {}),
          ...(status !== device.status ? { status } : {}),
          ...(Number(multiplier) !== device.meter.multiplier ? { multiplier: Number(multiplier) } : {}),
        };
        return updateMeter({ meterNumber: device.meter.meterNumber, body }).unwrap();
      }
      const newParent = parentId === null ? null : Number(parentId);
      return updateDevice({
        id: device.id,
        body: {
          ...(serial.trim() !== device.serial ? { serial: serial.trim() } : {}),
          ...(device.type === DeviceType.Cube && newParent !== device.parentId
            ? { parentId: newParent }
            : {}),
          ...(priority !== device.priority ? { priority } : {}),
          ...(status !== device.status ? { status } : {}),
        },
      }).unwrap();
    },
    t('admin.devices.saved'),
    onDone,
  );
  const serverError = useFieldErrors(failure);

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      noValidate
    >
      <Stack gap="md">
        {device.meter ? (
          <>
            <TextInput
              label={t('admin.devices.fields.meterNumber')}
              value={device.meter.meterNumber}
              readOnly
            />
            <NumberInput
              label={t('admin.devices.fields.multiplier')}
              description={t('admin.devices.form.multiplierHint')}
              value={multiplier}
              onChange={setMultiplier}
              min={1}
              allowDecimal={false}
              error={serverError('multiplier')}
            />
          </>
        ) : (
          <TextInput
            label={t('admin.devices.fields.serial')}
            value={serial}
            onChange={(event) => setSerial(event.currentTarget.value)}
            error={serverError('serial')}
            required
            data-autofocus
          />
        )}
        {device.type === DeviceType.Cube ? (
          <Select
            label={t('admin.devices.fields.parent')}
            data={accessPoints.map((ap) => ({ value: String(ap.id), label: deviceName(ap) }))}
            value={parentId}
            onChange={setParentId}
            clearable
            placeholder={t('admin.devices.form.noParent')}
            error={serverError('parentId')}
          />
        ) : null}
        <PriorityStatusFields
          priority={priority}
          status={status}
          onPriority={setPriority}
          onStatus={setStatus}
          serverError={serverError}
        />
        <OtherFailure failure={failure} fields={['serial', 'parentId', 'priority', 'status', 'multiplier']} />
        <FormButtons
          onCancel={onDone}
          isSaving={deviceState.isLoading || meterState.isLoading}
          submitLabel={t('admin.actions.save')}
        />
      </Stack>
    </form>
  );
}

/** Hang a meter under another Cube of its location, or under none. */
export function MoveMeterForm({
  device,
  roots,
  onDone,
}: {
  device: AdminDevice;
  roots: readonly DeviceNode[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const NONE = 'none';
  const [cubeId, setCubeId] = useState<string>(device.parentId === null ? NONE : String(device.parentId));
  const [moveMeter, state] = useMoveMeterMutation();
  const cubes = devicesOfType(roots, DeviceType.Cube);
  const meterNumber = device.meter?.meterNumber ?? '';
  const { failure, submit } = useSubmit(
    () => moveMeter({ meterNumber, cubeId: cubeId === NONE ? null : Number(cubeId) }).unwrap(),
    t('admin.devices.moved', { meterNumber }),
    onDone,
  );
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      noValidate
    >
      <Stack gap="md">
        <Text size="sm">
          {t('admin.move.text', { meterNumber, cube: device.parentSerial ?? t('admin.devices.form.noCube') })}
        </Text>
        <Select
          label={t('admin.move.to')}
          data={[
            { value: NONE, label: t('admin.devices.form.noCube') },
            ...cubes.map((cube) => ({ value: String(cube.id), label: deviceName(cube) })),
          ]}
          value={cubeId}
          onChange={(value) => setCubeId(value ?? NONE)}
          allowDeselect={false}
          error={fieldFailure(failure, ['cubeId']) ? t('admin.move.badCube') : null}
          data-autofocus
        />
        <OtherFailure failure={failure} fields={['cubeId']} />
        <FormButtons onCancel={onDone} isSaving={state.isLoading} submitLabel={t('admin.move.submit')} />
      </Stack>
    </form>
  );
}

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
  const { t, i18n } = useTranslation();
  const meter = device.meter;
  const [values, setValues] = useState<ExchangeFormValues>(() => ({
    at: instantToZonedLocal(Date.now(), timeZone),
    finalRegister: '',
    newMeterNumber: '',
    newStartRegister: 0,
  }));
  const [errors, setErrors] = useState<ExchangeFormErrors>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [exchangeMeter, state] = useExchangeMeterMutation();
  const serverError = useFieldErrors(failure);
  if (!meter) return null;
  const set = <K extends keyof ExchangeFormValues>(field: K, value: ExchangeFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));
  const error = (field: keyof ExchangeFormValues) =>
    errors[field] ? t(errors[field], { digits: meter.registerDigits }) : serverError(field);
  const meterNumber = meter.meterNumber;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!meter) return;
    const result = validateExchange(values, {
      meterNumber,
      timeZone,
      registerDigits: meter.registerDigits,
      installedAt: meter.installedAt,
      now: Date.now(),
    });
    setErrors(result.errors);
    if (!result.body) return;
    setFailure(null);
    try {
      const answer = await exchangeMeter({ meterNumber, body: result.body }).unwrap();
      toast.success(
        t('admin.exchange.done', {
          oldMeter: meterNumber,
          newMeter: answer.newMeter.meter?.meterNumber ?? '',
        }),
      );
      onDone();
    } catch (caught) {
      setFailure(toFailure(caught));
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <Alert variant="light" icon={<IconInfoCircle aria-hidden />}>
          {t('admin.exchange.explain', {
            meterNumber,
            meterInd: meter.meterInd,
            installed: formatDateTime(meter.installedAt, i18n.language, timeZone),
            multiplier: formatNumber(meter.multiplier, i18n.language),
          })}
        </Alert>
        <TextInput
          type="datetime-local"
          label={t('admin.exchange.at')}
          description={t('admin.devices.form.zoneHint', { zone: timeZone })}
          value={values.at}
          onChange={(event) => set('at', event.currentTarget.value)}
          error={error('at')}
          required
          data-autofocus
        />
        <NumberInput
          label={t('admin.exchange.finalRegister', { meterNumber })}
          description={t('admin.exchange.registerHint')}
          value={values.finalRegister}
          onChange={(value) => set('finalRegister', value)}
          error={error('finalRegister')}
          min={0}
          decimalScale={3}
          decimalSeparator={
            new Intl.NumberFormat(i18n.language).formatToParts(1.5).find((part) => part.type === 'decimal')
              ?.value ?? '.'
          }
          rightSection={
            <Text size="xs" c="dimmed">
              {'kWh'}
            </Text>
          }
          rightSectionWidth={44}
          required
        />
        <TextInput
          label={t('admin.exchange.newMeterNumber')}
          value={values.newMeterNumber}
          onChange={(event) => set('newMeterNumber', event.currentTarget.value)}
          error={error('newMeterNumber')}
          required
          autoComplete="off"
          spellCheck={false}
        />
        <NumberInput
          label={t('admin.exchange.newStartRegister')}
          description={t('admin.exchange.registerHint')}
          value={values.newStartRegister}
          onChange={(value) => set('newStartRegister', value)}
          error={error('newStartRegister')}
          min={0}
          decimalScale={3}
          decimalSeparator={
            new Intl.NumberFormat(i18n.language).formatToParts(1.5).find((part) => part.type === 'decimal')
              ?.value ?? '.'
          }
          rightSection={
            <Text size="xs" c="dimmed">
              {'kWh'}
            </Text>
          }
          rightSectionWidth={44}
          required
        />
        <OtherFailure
          failure={failure}
          fields={['at', 'finalRegister', 'newMeterNumber', 'newStartRegister']}
        />
        <FormButtons onCancel={onDone} isSaving={state.isLoading} submitLabel={t('admin.exchange.submit')} />
      </Stack>
    </form>
  );
}
