import { NumberInput, Text, type NumberInputProps } from '@mantine/core';
import { useDecimalSeparator } from '@/lib/use-decimal-separator.ts';

/** A register value in kWh, to the Wh, typed with the interface language's decimal separator. */
export function KwhInput(props: NumberInputProps) {
  const decimalSeparator = useDecimalSeparator();
  return (
    <NumberInput
      min={0}
      decimalScale={3}
      decimalSeparator={decimalSeparator}
      rightSection={
        <Text size="xs" c="dimmed">
          {'kWh'}
        </Text>
      }
      rightSectionWidth={44}
      {...props}
    />
  );
}
