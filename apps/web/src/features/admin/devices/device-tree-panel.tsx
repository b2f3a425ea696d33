import { ActionIcon, Badge, Stack, Text, Title, Tree, useTree } from '@mantine/core';
import { IconChevronDown, IconPencil } from '@tabler/icons-react';
import type { AdminDevice, DeviceNode } from '@cm/contracts/admin.ts';
import { DeviceType } from '@cm/contracts/enums.ts';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import classes from '../admin.module.css';
import { StatusBadge, TypeIcon } from './device-badges.tsx';
import { typeKeys } from './device-labels.ts';
import { branchValues, deviceName, indexTree, toTreeItems, treeCounts } from './device-tree.ts';
import { AdminPanel } from '../admin-ui.tsx';

/** AccessPoint → Cube → Meter, keyboard-navigable (arrows open and close branches). */
export function DeviceTreePanel({
  roots,
  onEdit,
}: {
  roots: readonly DeviceNode[];
  onEdit: (device: AdminDevice) => void;
}) {
  const { t } = useTranslation();
  const items = useMemo(() => toTreeItems(roots), [roots]);
  const byId = useMemo(() => indexTree(roots), [roots]);
  const counts = treeCounts(roots);
  const tree = useTree();
  const branches = useMemo(() => branchValues(items), [items]);
  const branchKey = branches.join(',');
  useEffect(() => {
    tree.setExpandedState(Object.fromEntries(branches.map((value) => [value, true])));
    // Open every branch when the location's tree changes, not on each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [branchKey]);

  return (
    <AdminPanel labelledBy="cm-device-tree-title">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="cm-device-tree-title">
            {t('admin.devices.tree')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('admin.devices.treeCounts', counts)}
          </Text>
        </div>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('admin.devices.treeEmpty')}
          </Text>
        ) : (
          <Tree
            data={items}
            tree={tree}
            withLines
            levelOffset="md"
            aria-labelledby="cm-device-tree-title"
            renderNode={({ node, expanded, hasChildren, elementProps }) => {
              const device = byId.get(Number(node.value));
              return (
                <div
                  {...elementProps}
                  className={`${elementProps.className} ${classes.treeNode}`}
                  data-testid={`tree-${String(node.label)}`}
                >
                  {hasChildren ? (
                    <IconChevronDown
                      size={14}
                      aria-hidden
                      style={{ transform: expanded ? undefined : 'rotate(-90deg)' }}
                    />
                  ) : (
                    <span style={{ width: 14 }} aria-hidden />
                  )}
                  {device ? <TypeIcon type={device.type} /> : null}
                  <Text
                    size="sm"
                    fw={device?.type === DeviceType.Meter ? 400 : 600}
                    className={classes.mono}
                    td={device?.meter?.removedAt ? 'line-through' : undefined}
                  >
                    {node.label}
                  </Text>
                  {device ? (
                    <>
                      <span className="cm-visually-hidden">
                        {t(typeKeys[device.type] ?? 'admin.devices.type.meter')}
                      </span>
                      {device.meter?.removedAt ? (
                        <Badge size="xs" variant="outline" color="gray">
                          {t('admin.devices.removedBadge')}
                        </Badge>
                      ) : device.status !== 'active' ? (
                        <StatusBadge status={device.status} />
                      ) : null}
                      {device.meter && !device.meter.removedAt ? (
                        <Text size="xs" c="dimmed">
                          {t('admin.devices.positionShort', { meterInd: device.meter.meterInd })}
                        </Text>
                      ) : null}
                      <ActionIcon
                        size="sm"
                        variant="subtle"
                        color="gray"
                        ms="auto"
                        aria-label={t('admin.devices.edit', { name: deviceName(device) })}
                        onClick={(event) => {
                          event.stopPropagation();
                          onEdit(device);
                        }}
                      >
                        <IconPencil size={14} aria-hidden />
                      </ActionIcon>
                    </>
                  ) : null}
                </div>
              );
            }}
          />
        )}
      </Stack>
    </AdminPanel>
  );
}
