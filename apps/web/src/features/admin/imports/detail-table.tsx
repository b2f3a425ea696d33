import type { RejectedLine } from '@cm/contracts/admin.ts';
import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format.ts';
import classes from '../admin.module.css';
import { rejectionText } from './rejection-text.ts';

interface DetailTableProps {
  /** A visible caption above the table; or name it with `labelledBy`. */
  caption?: ReactNode;
  labelledBy?: string;
  headers: ReactNode[];
  minWidth?: number;
  striped?: boolean;
  testId?: string;
  children: ReactNode;
}

/** The small read-only tables of a preview or a report: a caption, a header row, sideways scroll. */
export function DetailTable({
  caption,
  labelledBy,
  headers,
  minWidth,
  striped = true,
  testId,
  children,
}: DetailTableProps) {
  // Wider than a phone, the table scrolls sideways: the region takes the focus, so keys scroll it.
  return (
    <div
      className={classes.tableWrap}
      // eslint-disable-next-line jsx-a11y-x/no-noninteractive-tabindex -- a named region when labelled (the spread below): it scrolls sideways, so it takes the focus
      tabIndex={0}
      {...(labelledBy
        ? { role: 'region', 'aria-labelledby': labelledBy }
        : typeof caption === 'string'
          ? { role: 'region', 'aria-label': caption }
          : {})}
    >
      <Table
        striped={striped}
        verticalSpacing={4}
        miw={minWidth}
        captionSide="top"
        aria-labelledby={labelledBy}
        data-testid={testId}
      >
        {caption ? <Table.Caption>{caption}</Table.Caption> : null}
        <Table.Thead>
          <Table.Tr>
            {headers.map((header, index) => (
              <Table.Th key={index}>{header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </div>
  );
}

/** Refused lines with the same reason, in file order: one row of the table. */
interface ProblemGroup {
  text: string;
  lines: number[];
}

/** The lines grouped by their reason as worded (1,000 lines of one unknown meter are one row). */
function groupProblems(problems: readonly RejectedLine[], t: TFunction): ProblemGroup[] {
  const groups = new Map<string, ProblemGroup>();
  for (const problem of problems) {
    const text = rejectionText(problem, t);
    const group = groups.get(text);
    if (group) group.lines.push(problem.line);
    else groups.set(text, { text, lines: [problem.line] });
  }
  return [...groups.values()];
}

/**
 * Lines of a file and why each was refused: shown in the preview and in the report. Lines refused
 * for the same reason are one row ("1,000 lines, 2 to 1,001"), so that a file of a meter CM does
 * not know reads as that, not as a thousand identical rows (issue 34).
 */
export function LineProblems({
  problems,
  caption,
  labelledBy,
  testId,
}: {
  problems: RejectedLine[];
  caption?: ReactNode;
  labelledBy?: string;
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  const line = (value: number) => formatNumber(value, i18n.language, { useGrouping: false });
  const groups = groupProblems(problems, t);
  return (
    <DetailTable
      caption={caption}
      labelledBy={labelledBy}
      headers={[t('admin.import.line'), t('admin.import.reason')]}
      testId={testId}
    >
      {groups.map((group) => (
        <Table.Tr key={`${group.lines[0] ?? 0}-${group.text}`}>
          <Table.Td w={group.lines.length > 1 ? 160 : 90}>
            {group.lines.length === 1
              ? line(group.lines[0] ?? 0)
              : t('admin.import.lineGroup', {
                  count: group.lines.length,
                  first: line(group.lines[0] ?? 0),
                  last: line(group.lines[group.lines.length - 1] ?? 0),
                })}
          </Table.Td>
          <Table.Td>
            <Text size="sm">{group.text}</Text>
          </Table.Td>
        </Table.Tr>
      ))}
    </DetailTable>
  );
}
