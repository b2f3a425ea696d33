import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, theme } from './theme.ts';

const luminance = (hex: string) => {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => {
    const s = parseInt(hex.slice(i, i + 2), 16) / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [hi = 0, lo = 0] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

describe('theme', () => {
  it('gives placeholders ("Choose a file") 4.5:1 on the inputs of both skins (issue 34: 3.32:1)', () => {
    const variables = cssVariablesResolver(theme as never);
    // Inputs are white in the light skin and Mantine's dark-6 (#2e2e2e) in the dark one.
    expect(contrast(variables.light['--mantine-color-placeholder'] ?? '', '#ffffff')).toBeGreaterThanOrEqual(
      4.5,
    );
    expect(contrast(variables.dark['--mantine-color-placeholder'] ?? '', '#2e2e2e')).toBeGreaterThanOrEqual(
      4.5,
    );
  });
});
