import { Text } from '@mantine/core';
import classes from '../check.module.css';

/** One figure of a panel: a small label, the value, and a line saying more about it. */
export function Stat({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: string;
  hint?: string | null;
  testId: string;
}) {
  return (
    <div className={classes.stat} data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} className={classes.statLabel}>
        {label}
      </Text>
      <Text fw={700} className={classes.statValue} data-value>
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </div>
  );
}
