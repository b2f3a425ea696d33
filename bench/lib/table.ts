/** Prints rows as an aligned Markdown table (pasteable into an issue note). */
export function printTable(title: string, header: string[], rows: Array<Array<string | number>>): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const text = [
    `\n### ${title}\n`,
    line(header),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map((row) => line(row.map(String))),
  ].join('\n');
  console.log(text);
  return text;
}
