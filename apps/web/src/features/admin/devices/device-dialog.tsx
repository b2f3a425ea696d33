import type { AdminDevice, DeviceNode } from '@cm/contracts/admin.ts';
import type { TFunction } from 'i18next';
import { toFailure } from '@/lib/http-client.ts';
import { FailureAlert } from '../admin-ui.tsx';
import { useGetDeviceTreeQuery } from './devices-api.ts';
import { deviceName } from './device-tree.ts';
import { EditDeviceForm } from './edit-device-form.tsx';
import { ExchangeMeterForm } from './exchange-meter-form.tsx';
import { MoveMeterForm } from './move-meter-form.tsx';
import { NewDeviceForm } from './new-device-form.tsx';
import { NewMeterForm } from './new-meter-form.tsx';

/** The devices page's drawer: what it is open for. */
export type DeviceDialog =
  | { kind: 'newDevice' }
  | { kind: 'newMeter' }
  | { kind: 'edit'; device: AdminDevice }
  | { kind: 'move'; device: AdminDevice }
  | { kind: 'exchange'; device: AdminDevice };

/** The drawer's title. */
export function deviceDialogTitle(dialog: DeviceDialog, t: TFunction): string {
  switch (dialog.kind) {
    case 'newDevice':
      return t('admin.devices.addDevice');
    case 'newMeter':
      return t('admin.devices.addMeter');
    case 'edit':
      return t('admin.devices.edit', { name: deviceName(dialog.device) });
    case 'move':
      return t('admin.move.title', { meterNumber: deviceName(dialog.device) });
    case 'exchange':
      return t('admin.exchange.title', { meterNumber: deviceName(dialog.device) });
  }
}

interface DeviceDialogBodyProps {
  dialog: DeviceDialog;
  /** The location on screen (new devices go there), its zone and its tree. */
  location: { id: number; timeZone: string; roots: readonly DeviceNode[] } | null;
  /** The zone of a device's own location (the table may list several locations). */
  zoneOf: (device: AdminDevice) => string;
  onDone: () => void;
}

/** The drawer's form. */
export function DeviceDialogBody({ dialog, location, zoneOf, onDone }: DeviceDialogBodyProps) {
  switch (dialog.kind) {
    case 'newDevice':
      return location ? (
        <NewDeviceForm locationId={location.id} roots={location.roots} onDone={onDone} />
      ) : null;
    case 'newMeter':
      return location ? (
        <NewMeterForm
          locationId={location.id}
          timeZone={location.timeZone}
          roots={location.roots}
          onDone={onDone}
        />
      ) : null;
    case 'edit':
      return (
        <EditDeviceForm
          key={dialog.device.id}
          device={dialog.device}
          roots={location?.roots ?? []}
          onDone={onDone}
        />
      );
    case 'move':
      return <MoveMeterSection device={dialog.device} onDone={onDone} />;
    case 'exchange':
      return (
        <ExchangeMeterForm
          key={dialog.device.id}
          device={dialog.device}
          timeZone={zoneOf(dialog.device)}
          onDone={onDone}
        />
      );
  }
}

/** Moving needs the meter's own location's Cubes, which may not be the tree on screen. */
function MoveMeterSection({ device, onDone }: { device: AdminDevice; onDone: () => void }) {
  const query = useGetDeviceTreeQuery(device.locationId);
  if (!query.data) return <FailureAlert failure={toFailure(query.error)} />;
  return <MoveMeterForm device={device} roots={query.data.roots} onDone={onDone} />;
}
