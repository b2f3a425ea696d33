import { Progress, Stack, Text } from '@mantine/core';

/** The upload's progress, then the running job's: the bar and what it says. */
export function ProgressBar({
  label,
  percent,
  isIndeterminate,
}: {
  label: string;
  percent: number;
  isIndeterminate: boolean;
}) {
  return (
    <Stack gap={4}>
      <Text size="sm" id="cm-import-progress-label" data-testid="import-progress-label">
        {label}
      </Text>
      <Progress
        value={isIndeterminate ? 100 : percent}
        animated={isIndeterminate}
        striped={isIndeterminate}
        aria-labelledby="cm-import-progress-label"
        size="lg"
        transitionDuration={200}
        data-testid="import-progress"
      />
    </Stack>
  );
}
