import {
  Alert,
  Button,
  CopyButton,
  Group,
  Modal,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconAlertCircle, IconAlertTriangle, IconCheck, IconCopy, IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format.ts';
import { PRODUCT_NAME } from '@/lib/config.ts';
import { toFailure, type Failure } from '@/lib/http-client.ts';
import { describeFailure } from './failure-message.ts';
import classes from './admin.module.css';
import { pagerLabels } from '@/components/pager-labels.ts';

/** Says a failed action in a toast, by meaning (for actions without a form to show it in). */
export function useFailureToast(): (error: unknown, context?: 'user' | 'other') => void {
  const { t } = useTranslation();
  return (error, context = 'other') => {
    const failure = toFailure(error);
    if (!failure) return;
    const text = describeFailure(failure, context);
    toast.error(t(text.key, text.values));
  };
}

interface PageHeaderProps {
  title: string;
  intro: string;
  actions?: ReactNode;
}

/** A page's title (also the document title), its one-line purpose and its main actions. */
export function AdminPageHeader({ title, intro, actions }: PageHeaderProps) {
  const { t } = useTranslation();
  useDocumentTitle(`${title} · ${t('admin.title')} · ${PRODUCT_NAME}`);
  return (
    <div className={classes.header}>
      <div>
        <Title order={1} className={classes.pageTitle}>
          {title}
        </Title>
        <Text c="dimmed" size="sm">
          {intro}
        </Text>
      </div>
      {actions ? <Group gap="xs">{actions}</Group> : null}
    </div>
  );
}

/** A failed call, said by meaning. */
export function FailureAlert({
  failure,
  context = 'other',
}: {
  failure: Failure | null;
  context?: 'user' | 'other';
}) {
  const { t } = useTranslation();
  if (!failure) return null;
  const text = describeFailure(failure, context);
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle aria-hidden />}
      title={t('admin.errors.title')}
      role="alert"
    >
      {t(text.key, text.values)}
    </Alert>
  );
}

interface ListPagerProps {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
}

/** "21–40 of 95" and the page buttons. */
export function ListPager({ page, pageSize, total, onChange }: ListPagerProps) {
  const { t, i18n } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Text size="sm" c="dimmed" aria-live="polite">
        {t('admin.list.range', {
          first: formatNumber(first, i18n.language),
          last: formatNumber(last, i18n.language),
          total: formatNumber(total, i18n.language),
        })}
      </Text>
      {pages > 1 ? (
        <Pagination
          total={pages}
          value={page}
          onChange={onChange}
          size="sm"
          siblings={1}
          boundaries={1}
          {...pagerLabels(t)}
        />
      ) : null}
    </Group>
  );
}

interface OneTimeSecretProps {
  label: string;
  warning: string;
  value: string;
  onDone: () => void;
}

/** A secret the server answers once (an API key, a temporary password): a warning, the value and a copy button. */
export function OneTimeSecret({ label, warning, value, onDone }: OneTimeSecretProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="one-time-secret">
      <Alert
        color="orange"
        variant="light"
        icon={<IconAlertTriangle aria-hidden />}
        title={t('admin.secret.title')}
        // Orange 9 on orange light is 3.6:1: the title in the text colour reads in light and dark.
        styles={{ title: { color: 'var(--mantine-color-text)' } }}
      >
        {warning}
      </Alert>
      <Text size="sm" fw={600} id="cm-secret-label">
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <output className={classes.secret} aria-labelledby="cm-secret-label" data-testid="secret-value">
          {value}
        </output>
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('admin.secret.copied') : t('admin.secret.copy')} withArrow>
              <Button
                variant={copied ? 'filled' : 'light'}
                color={copied ? 'teal' : 'blue'}
                onClick={copy}
                leftSection={
                  copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />
                }
              >
                {copied ? t('admin.secret.copied') : t('admin.secret.copy')}
              </Button>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onDone}>{t('admin.secret.done')}</Button>
      </Group>
    </Stack>
  );
}

interface ConfirmDialogProps<T> {
  /** What is asked about; null: the dialog is closed. */
  subject: T | null;
  title: string;
  /** What happens, in words. */
  message: string;
  /** The button that does it. */
  action: string;
  color: 'red' | 'orange';
  isBusy?: boolean;
  onConfirm: (subject: T) => void;
  onCancel: () => void;
}

/** Asks before an action that cannot be taken back quietly (revoke, archive, disable, reset): Cancel or do it. */
export function ConfirmDialog<T>({
  subject,
  title,
  message,
  action,
  color,
  isBusy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps<T>) {
  const { t } = useTranslation();
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('common.close') }}
      opened={subject !== null}
      onClose={onCancel}
      title={title}
      centered
    >
      <Stack gap="md">
        <Text size="sm">{message}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('admin.actions.cancel')}
          </Button>
          <Button color={color} loading={isBusy} onClick={() => subject !== null && onConfirm(subject)}>
            {action}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

interface AdminTableProps {
  /** Column headings; an actions column with a hidden heading is added when `hasActions`. */
  headers: ReactNode[];
  hasActions?: boolean;
  /** A heading read by screen readers only. */
  caption?: string;
  isBusy: boolean;
  isEmpty: boolean;
  emptyText: string;
  minWidth: number;
  highlightOnHover?: boolean;
  children: ReactNode;
}

/** A bordered panel of an admin page; a named section when `labelledBy` points at its heading. */
export function AdminPanel({
  labelledBy,
  testId,
  children,
}: {
  labelledBy?: string | undefined;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      className={classes.panel}
      data-testid={testId}
      {...(labelledBy ? { component: 'section' as const, 'aria-labelledby': labelledBy } : {})}
    >
      {children}
    </Paper>
  );
}

/** A panel holding a list: its heading (the panel's name), the load failure if any, then the list. */
export function AdminListPanel({
  id,
  title,
  failure,
  children,
}: {
  id: string;
  title: string;
  failure: Failure | null;
  children: ReactNode;
}) {
  return (
    <AdminPanel labelledBy={id}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        <FailureAlert failure={failure} />
        {children}
      </Stack>
    </AdminPanel>
  );
}

/** A create form's failure and its submit button ("+ label"), busy while it is sent. */
export function CreateFooter({
  failure,
  label,
  isBusy,
}: {
  failure: Failure | null;
  label: string;
  isBusy: boolean;
}) {
  return (
    <>
      <FailureAlert failure={failure} />
      <Group>
        <Button type="submit" leftSection={<IconPlus size={16} aria-hidden />} loading={isBusy}>
          {label}
        </Button>
      </Group>
    </>
  );
}

/** The list table every admin page uses: scrolls sideways inside its box, says when it is empty, marks itself busy. */
export function AdminTable({
  headers,
  hasActions = false,
  caption,
  isBusy,
  isEmpty,
  emptyText,
  minWidth,
  highlightOnHover = false,
  children,
}: AdminTableProps) {
  const { t } = useTranslation();
  // Wider than a phone, the table scrolls sideways: the wrapper takes the focus, so keys scroll it.
  return (
    <div
      className={classes.tableWrap}
      // eslint-disable-next-line jsx-a11y-x/no-noninteractive-tabindex -- a named region when captioned (the spread below): it scrolls sideways, so it takes the focus
      tabIndex={0}
      {...(caption ? { role: 'region', 'aria-label': caption } : {})}
    >
      <Table
        striped
        highlightOnHover={highlightOnHover}
        verticalSpacing="xs"
        aria-busy={isBusy}
        miw={minWidth}
      >
        {caption ? <Table.Caption className="cm-visually-hidden">{caption}</Table.Caption> : null}
        <Table.Thead>
          <Table.Tr>
            {headers.map((header, index) => (
              <Table.Th key={index}>{header}</Table.Th>
            ))}
            {hasActions ? (
              <Table.Th>
                <span className="cm-visually-hidden">{t('admin.actions.label')}</span>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {isEmpty && !isBusy ? (
            <Table.Tr>
              <Table.Td colSpan={headers.length + (hasActions ? 1 : 0)}>
                <Text c="dimmed" size="sm" ta="center" py="md">
                  {emptyText}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
          {children}
        </Table.Tbody>
      </Table>
    </div>
  );
}
