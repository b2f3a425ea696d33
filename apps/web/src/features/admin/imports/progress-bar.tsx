import { Progress, Stack, Text } from '@mantine/core';

/** The upload's progress, then the running job's: the bar and what it says. */
export function ProgressBar({
  label,
  percent,
  isIndeterminate,
  isWorking = false,
}: {
  label: string;
  percent: number;
  /** No measure yet (waiting): a full moving bar. */
  isIndeterminate: boolean;
  /** At `percent` and still working there (checking, storing): the bar moves where it stands. */
  isWorking?: boolean;
}) {
  return (
    <Stack gap={4}>
      <Text size="sm" id="cm-import-progress-label" data-testid="import-progress-label">
        {label}
      </Text>
      <Progress
        value={isIndeterminate ? 100 : Math.round(percent)}
        animated={isIndeterminate || isWorking}
        striped={isIndeterminate || isWorking}
        aria-labelledby="cm-import-progress-label"
        size="lg"
        transitionDuration={200}
        data-testid="import-progress"
      />
    </Stack>
  );
}
