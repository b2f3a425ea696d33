// Text from a file as a refusal may show it: never raw bytes (a NUL would break a jsonb column
// and a terminal alike), only printable characters, escaped and cut.

/** `text` with control and unassigned-looking characters escaped (\x00, \u2028), cut to `max` characters with "…". */
export function printable(text: string, max = 80): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const shown =
      code < 0x20 || (code >= 0x7f && code < 0xa0)
        ? `\\x${code.toString(16).padStart(2, '0')}`
        : code === 0xfffd || code === 0x2028 || code === 0x2029 || code === 0xfeff
          ? `\\u${code.toString(16).padStart(4, '0')}`
          : char;
    if (out.length + shown.length > max) return `${out}…`;
    out += shown;
  }
  return out;
}

/**
 * A value as JSON for a jsonb column, every NUL in its strings written as \x00: PostgreSQL's
 * jsonb refuses the character (22P05), and a file's text (a refused line's value, a column name)
 * may hold one anywhere.
 */
export function jsonbText(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'string' && item.includes('\u0000') ? item.replaceAll('\u0000', '\\x00') : item,
  );
}
