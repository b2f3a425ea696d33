import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toFailure, type Failure } from '@/lib/http-client.ts';
import { describeFailure } from '../failure-message.ts';

interface Options {
  /** What was being done, for a 409 without a parameter (the last administrator). */
  context?: 'user' | 'other';
  /** A sentence of the form's own for a refusal of one field (by parameter), instead of the general one. */
  fieldKeys?: Partial<Record<string, string>>;
}

/**
 * Sends a form's call. The server's refusal of one of the form's `fields` (its `param`) is shown
 * next to that field, as the form's own checks are; any other failure is returned for the alert.
 */
export function useServerFailure(
  setFieldError: (field: string, error: ReactNode) => void,
  fields: readonly string[],
  options: Options = {},
) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<Failure | null>(null);
  async function submit(call: () => Promise<void>): Promise<void> {
    setFailure(null);
    try {
      await call();
    } catch (caught) {
      const found = toFailure(caught);
      const field = fields.find((name) => name === found?.param);
      if (!found || field === undefined) {
        setFailure(found);
        return;
      }
      const own = options.fieldKeys?.[field];
      const text = own ? { key: own, values: {} } : describeFailure(found, options.context);
      setFieldError(field, t(text.key, text.values));
    }
  }
  return { failure, submit };
}
