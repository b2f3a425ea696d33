import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Failure } from '@/lib/http-client.ts';
import { AdminPageHeader, AdminPanel, FailureAlert, ListPager } from '../admin-ui.tsx';
import classes from '../admin.module.css';

interface AdminListPageProps {
  header: { title: string; intro: string; actions?: ReactNode };
  /** The filter fields, in a search landmark named `label`. */
  filters: { label: string; fields: ReactNode };
  /** The list's failure, said by meaning above the table. */
  failure: Failure | null;
  table: ReactNode;
  /** The pager, once the list has answered (`total`). */
  pager: { page: number; pageSize: number; total: number | undefined; onChange: (page: number) => void };
  /** The list panel's heading, for a page with more than the list (id for aria-labelledby). */
  listTitle?: { id: string; text: string };
  /** Above the list (the devices page's location). */
  before?: ReactNode;
  /** Beside the list (the devices page's tree); the two share the width. */
  aside?: ReactNode;
  /** The page's drawers and dialogs. */
  children?: ReactNode;
}

/** The shell of every admin list page: header, filters, failure, table and pager. */
export function AdminListPage({
  header,
  filters,
  failure,
  table,
  pager,
  listTitle,
  before,
  aside,
  children,
}: AdminListPageProps) {
  const list = (
    <AdminPanel labelledBy={listTitle?.id}>
      <Stack gap="md">
        {listTitle ? (
          <Title order={2} size="h4" id={listTitle.id}>
            {listTitle.text}
          </Title>
        ) : null}
        <div className={classes.filters} role="search" aria-label={filters.label}>
          {filters.fields}
        </div>
        <FailureAlert failure={failure} />
        {table}
        {pager.total === undefined ? null : (
          <ListPager
            page={pager.page}
            pageSize={pager.pageSize}
            total={pager.total}
            onChange={pager.onChange}
          />
        )}
      </Stack>
    </AdminPanel>
  );
  return (
    <Stack gap="md" className={classes.page}>
      <AdminPageHeader title={header.title} intro={header.intro} actions={header.actions} />
      {before}
      {aside === undefined ? (
        list
      ) : (
        <div className={classes.split}>
          {aside}
          {list}
        </div>
      )}
      {children}
    </Stack>
  );
}
