import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { devicePriorityLabels, deviceStatusLabels } from './device-status.ts';

const css = readFileSync(path.join(import.meta.dirname, 'tone-badge.module.css'), 'utf8');
/** Mantine's dark-7, the dark skin's surface (app.css --cm-surface). */
const DARK_SURFACE = [0x1f, 0x1f, 0x1f];

type Rgb = number[];
const hex = (text: string): Rgb => [1, 3, 5].map((i) => parseInt(text.slice(i, i + 2), 16));
/** `rgb(r g b / a)` laid over `under`. */
function over(text: string, under: Rgb): Rgb {
  const [r = 0, g = 0, b = 0, a = 1] = (text.match(/[\d.]+/g) ?? []).map(Number);
  return [r, g, b].map((c, i) => c * a + (under[i] ?? 0) * (1 - a));
}
const luminance = (rgb: Rgb) => {
  const [r = 0, g = 0, b = 0] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: Rgb, b: Rgb) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
};
/** A tone's text and background in one skin, from the stylesheet. */
function pair(tone: string, dark: boolean): [Rgb, Rgb] {
  const rule = new RegExp(
    `${dark ? "dark'\\]\\) " : '\\n'}\\.badge\\[data-tone='${tone}'\\] \\{\\s*color: ([^;]+);\\s*background: ([^;]+);`,
  ).exec(css);
  if (!rule?.[1] || !rule[2]) throw new Error(`no ${dark ? 'dark' : 'light'} colours for ${tone}`);
  const background = dark ? over(rule[2], DARK_SURFACE) : hex(rule[2]);
  return [rule[1].startsWith('#') ? hex(rule[1]) : over(rule[1], background), background];
}

describe('badge colours', () => {
  it('keep small text at 4.5:1 in both skins for every device status and priority (issue 34: MEDIUM at 3.61:1)', () => {
    const tones = new Set([
      ...Object.values(devicePriorityLabels).map((label) => label.color),
      ...Object.values(deviceStatusLabels).map((label) => label.color),
    ]);
    for (const tone of tones)
      for (const dark of [false, true]) {
        const [text, background] = pair(tone, dark);
        expect(contrast(text, background), `${tone} ${dark ? 'dark' : 'light'}`).toBeGreaterThanOrEqual(4.5);
      }
  });
});
