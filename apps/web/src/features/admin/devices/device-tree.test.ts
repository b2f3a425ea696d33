import type { DeviceNode } from '@cm/contracts/admin.ts';
import { describe, expect, it } from 'vitest';
import { branchValues, devicesOfType, toTreeItems, treeCounts } from './device-tree.ts';

let nextId = 1;
function node(
  type: number,
  serial: string,
  children: DeviceNode[] = [],
  meter?: { meterNumber: string; meterInd: number; removedAt?: string },
): DeviceNode {
  return {
    id: nextId++,
    type,
    serial,
    parentId: null,
    parentSerial: null,
    locationId: 1,
    locationName: 'Site',
    priority: 1,
    priorityLabel: 'New',
    status: 'active',
    lastSeenAt: null,
    meter: meter
      ? {
          meterNumber: meter.meterNumber,
          label: '',
          mainSupply: false,
          meterInd: meter.meterInd,
          multiplier: 1,
          unit: 'kWh',
          registerDigits: 6,
          intervalMinutes: 15,
          installedAt: '2026-01-01T00:00:00Z',
          removedAt: meter.removedAt ?? null,
          hasRegisterReadings: true,
        }
      : null,
    children,
  };
}

describe('device tree', () => {
  const m2 = node(3, 's-b', [], { meterNumber: 'EM-2', meterInd: 2 });
  const m1 = node(3, 's-a', [], { meterNumber: 'EM-1', meterInd: 1 });
  const old = node(3, 's-c', [], { meterNumber: 'EM-0', meterInd: 1, removedAt: '2026-02-01T00:00:00Z' });
  const cube10 = node(2, 'CUBE-10', [m2, m1]);
  const cube9 = node(2, 'CUBE-9', []);
  const ap = node(1, 'AP-1', [cube10, cube9]);
  const orphan = node(3, 'x', [], { meterNumber: 'EM-9', meterInd: 3 });
  const roots = [orphan, ap, old];

  it('lists AccessPoints first, Cubes by natural name, meters by indicator', () => {
    const items = toTreeItems(roots);
    expect(items.map((i) => i.label)).toEqual(['AP-1', 'EM-0', 'EM-9']);
    expect(items[0]?.children.map((i) => i.label)).toEqual(['CUBE-9', 'CUBE-10']);
    expect(items[0]?.children[1]?.children.map((i) => i.label)).toEqual(['EM-1', 'EM-2']);
  });

  it('finds the Cubes anywhere in the tree and counts installed meters only', () => {
    expect(devicesOfType(roots, 2).map((d) => d.serial)).toEqual(['CUBE-9', 'CUBE-10']);
    expect(treeCounts(roots)).toEqual({ accessPoints: 1, cubes: 2, meters: 3 });
  });

  it('names every branch to expand', () => {
    expect(branchValues(toTreeItems(roots))).toEqual([String(ap.id), String(cube10.id)]);
  });
});
