import type { AdminDevice, DeviceNode } from '@cm/contracts/admin.ts';
import { DeviceType } from '@cm/contracts/enums.ts';

/** A node of the tree as Mantine's Tree takes it: the value is the device id. */
export interface DeviceTreeItem {
  value: string;
  label: string;
  children: DeviceTreeItem[];
}

/** The tree label of a device: the meter number for meters, the serial for the others. */
export function deviceName(device: AdminDevice): string {
  return device.meter ? device.meter.meterNumber : device.serial;
}

/**
 * The server's tree as tree items, in a stable order: AccessPoints, then Cubes, then Meters at
 * each level, each by meter indicator then name, so a refetch never reshuffles what a person
 * is looking at.
 */
export function toTreeItems(roots: readonly DeviceNode[]): DeviceTreeItem[] {
  return sortNodes(roots).map((node) => ({
    value: String(node.id),
    label: deviceName(node),
    children: toTreeItems(node.children),
  }));
}

function sortNodes(nodes: readonly DeviceNode[]): DeviceNode[] {
  return [...nodes].sort(
    (a, b) =>
      a.type - b.type ||
      (a.meter?.meterInd ?? 0) - (b.meter?.meterInd ?? 0) ||
      deviceName(a).localeCompare(deviceName(b), undefined, { numeric: true }),
  );
}

/** Every device of the tree by id (to open a node's details). */
export function indexTree(roots: readonly DeviceNode[]): Map<number, DeviceNode> {
  const byId = new Map<number, DeviceNode>();
  const walk = (nodes: readonly DeviceNode[]) => {
    for (const node of nodes) {
      byId.set(node.id, node);
      walk(node.children);
    }
  };
  walk(roots);
  return byId;
}

/** The devices of one type in the tree (Cubes to move a meter under, AccessPoints to hang a Cube from). */
export function devicesOfType(roots: readonly DeviceNode[], type: number): DeviceNode[] {
  return [...indexTree(roots).values()]
    .filter((node) => node.type === type)
    .sort((a, b) => deviceName(a).localeCompare(deviceName(b), undefined, { numeric: true }));
}

/** How many devices of each type, and meters currently installed, for the tree's summary. */
export function treeCounts(roots: readonly DeviceNode[]): {
  accessPoints: number;
  cubes: number;
  meters: number;
} {
  let accessPoints = 0;
  let cubes = 0;
  let meters = 0;
  for (const node of indexTree(roots).values()) {
    if (node.type === DeviceType.AccessPoint) accessPoints += 1;
    else if (node.type === DeviceType.Cube) cubes += 1;
    else if (node.type === DeviceType.Meter && !node.meter?.removedAt) meters += 1;
  }
  return { accessPoints, cubes, meters };
}

/** The ids of nodes with children, to open the whole tree at once. */
export function branchValues(items: readonly DeviceTreeItem[]): string[] {
  return items.flatMap((item) =>
    item.children.length > 0 ? [item.value, ...branchValues(item.children)] : [],
  );
}
