import type { RejectedLine } from '@cm/contracts/admin.ts';
import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
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

/** Lines of a file and why each was refused: shown in the preview and in the report. */
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
  return (
    <DetailTable
      caption={caption}
      labelledBy={labelledBy}
      headers={[t('admin.import.line'), t('admin.import.reason')]}
      testId={testId}
    >
      {problems.map((problem) => (
        <Table.Tr key={`${problem.line}-${problem.reason}`}>
          <Table.Td w={90}>{formatNumber(problem.line, i18n.language, { useGrouping: false })}</Table.Td>
          <Table.Td>
            <Text size="sm">{rejectionText(problem, t)}</Text>
          </Table.Td>
        </Table.Tr>
      ))}
    </DetailTable>
  );
}
