import { useEffect } from 'react';
import toast, { Toaster, useToasterStore } from 'react-hot-toast';
import { TOAST_DURATIONS, TOAST_LIMIT } from '@/lib/config.ts';

/** The floating navbar's height with its margin (vertical-layout.module.css): 1rem + 62 px. */
const TOAST_TOP_OFFSET = 88;

/** Toasts (spec §9): top-right, class react-hot-toast, 4 s / 2 s success / no limit for loading, at most 20 shown. */
export function AppToaster() {
  const { toasts } = useToasterStore();

  useEffect(() => {
    // react-hot-toast keeps 20 by default but has no prop for it: the spec limit is enforced here so
    // it does not hang on a library default. The store lists the newest first.
    const visible = toasts.filter((t) => t.visible);
    for (const extra of visible.slice(TOAST_LIMIT)) toast.dismiss(extra.id);
  }, [toasts]);

  return (
    <Toaster
      position="top-right"
      // Below the floating navbar, so a toast never covers the user menu, search or language.
      containerStyle={{ top: TOAST_TOP_OFFSET }}
      toastOptions={{
        className: 'react-hot-toast',
        duration: TOAST_DURATIONS.blank,
        success: { duration: TOAST_DURATIONS.success },
        error: { duration: TOAST_DURATIONS.error },
        loading: { duration: TOAST_DURATIONS.loading },
      }}
    />
  );
}
