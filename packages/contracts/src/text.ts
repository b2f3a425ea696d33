import { z } from 'zod';

// Control characters are never part of a name, number or search; PostgreSQL also refuses NUL in text.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** A required one-line text parameter of at most `max` characters, named in its error messages. */
export function textParam(param: string, max: number) {
  return z
    .string({ message: `${param} is required.` })
    .trim()
    .min(1, `${param} is required.`)
    .max(max, `${param} is at most ${max} characters.`)
    .refine((value) => !CONTROL_CHARACTERS.test(value), `${param} must not contain control characters.`);
}

/** An optional one-line text of at most `max` characters ('' for none), named in its error messages. */
export function optionalTextParam(param: string, max: number) {
  return z
    .string({ message: `${param} must be text.` })
    .trim()
    .max(max, `${param} is at most ${max} characters.`)
    .refine((value) => !CONTROL_CHARACTERS.test(value), `${param} must not contain control characters.`);
}
