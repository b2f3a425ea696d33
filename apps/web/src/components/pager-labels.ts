import type { TFunction } from 'i18next';

/** Names for a Mantine Pagination's arrows and pages, for screen readers (getControlProps, getItemProps). */
export function pagerLabels(t: TFunction) {
  const controls: Record<string, string> = {
    previous: t('admin.list.previous'),
    next: t('admin.list.next'),
    first: t('admin.list.first'),
    last: t('admin.list.last'),
  };
  return {
    getControlProps: (control: string) => {
      const label = controls[control];
      return label === undefined ? {} : { 'aria-label': label };
    },
    getItemProps: (page: number) => ({ 'aria-label': t('admin.list.page', { page }) }),
  };
}
