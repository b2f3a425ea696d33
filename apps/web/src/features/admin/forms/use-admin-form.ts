import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { translateErrors } from './field-errors.ts';
import { useServerFailure } from './use-server-failure.ts';

interface AdminFormOptions<Values, Body> {
  initialValues: Values;
  /** The form's checks (the contract's schema and its own): i18n keys by field, and the body once there are none. */
  check: (values: Values) => { errors: Partial<Record<string, string>>; body: Body | null };
  /** Values for the messages' placeholders ({{digits}}, {{min}}). */
  messageValues?: Record<string, unknown>;
  /** The fields a server refusal (its `param`) is shown next to; any other failure goes to the alert. */
  fields: readonly string[];
  context?: 'user' | 'other';
  fieldKeys?: Partial<Record<string, string>>;
  /** Sends the checked body. */
  send: (body: Body) => Promise<void>;
}

/**
 * An admin form on @mantine/form: checked with `check` on submit (each problem next to its field,
 * cleared as the field changes), sent with `send`, and the server's refusals shown next to the
 * field they name.
 */
export function useAdminForm<Values extends object, Body>(options: AdminFormOptions<Values, Body>) {
  const { t } = useTranslation();
  const form = useForm<Values>({
    initialValues: options.initialValues,
    validate: (values) =>
      translateErrors(options.check(values).errors, (key, values) => t(key, values), options.messageValues),
  });
  const { failure, submit } = useServerFailure(form.setFieldError, options.fields, options);
  const onSubmit = form.onSubmit(async (values) => {
    const { body } = options.check(values);
    if (body !== null) await submit(() => options.send(body));
  });
  return { form, failure, onSubmit };
}
