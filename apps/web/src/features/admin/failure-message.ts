import type { Failure } from '@/lib/http-client.ts';
/** An i18n key and its values: what to tell a person about a failed call. */
export interface FailureText {
  key: string;
  values: Record<string, string>;
}

/** 409 answers the server gives, by the parameter it names: each has its own sentence. */
const CONFLICT_KEYS: Record<string, string> = {
  email: 'admin.errors.emailTaken',
  publicName: 'admin.errors.nameTaken',
  meterNumber: 'admin.errors.meterNumberTaken',
  newMeterNumber: 'admin.errors.meterNumberTaken',
  serial: 'admin.errors.serialTaken',
  meterInd: 'admin.errors.meterIndTaken',
  finalRegister: 'admin.errors.readingExists',
};

/**
 * 400 answers whose server words name an API parameter a person never sees ("give the
 * meterNumber"): a sentence of their own, by the parameter (issue 34, low).
 */
const BAD_INPUT_KEYS: Record<string, string> = {
  meterNumber: 'admin.errors.meterNumberNeeded',
};

/**
 * Translates a failed call by meaning. The server's own words (always English) are kept as a
 * detail for the cases where they carry facts a person needs (which value, which limit).
 * `context` names what was being done, for 409s without a parameter (the last administrator).
 */
export function describeFailure(failure: Failure, context: 'user' | 'other' = 'other'): FailureText {
  const detail = failure.message ?? '';
  if (failure.status === 'NETWORK_ERROR') return { key: 'admin.errors.network', values: {} };
  if (failure.status === 403) return { key: 'admin.errors.forbidden', values: {} };
  if (failure.status === 404) return { key: 'admin.errors.notFound', values: {} };
  if (failure.status === 409) {
    const byParam = failure.param ? CONFLICT_KEYS[failure.param] : undefined;
    if (byParam) return { key: byParam, values: { detail } };
    if (context === 'user') return { key: 'admin.errors.lastAdmin', values: {} };
    return { key: 'admin.errors.conflict', values: { detail } };
  }
  const badInput = failure.status === 400 && failure.param ? BAD_INPUT_KEYS[failure.param] : undefined;
  if (badInput) return { key: badInput, values: {} };
  if (failure.status === 400 || failure.status === 422)
    return { key: 'admin.errors.invalid', values: { detail } };
  if (failure.status === 413) return { key: 'admin.errors.tooLarge', values: {} };
  if (failure.status === 415) return { key: 'admin.errors.unsupportedType', values: {} };
  return { key: 'admin.errors.failed', values: {} };
}

/** The failure's text when it is about `param` (to show next to that field), else null. */
export function fieldFailure(
  failure: Failure | null,
  params: readonly string[],
  context: 'user' | 'other' = 'other',
): FailureText | null {
  if (!failure || failure.param === null || !params.includes(failure.param)) return null;
  return describeFailure(failure, context);
}
