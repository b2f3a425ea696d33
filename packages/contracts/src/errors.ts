import { z } from 'zod';

/** Every error the API answers with: `{ statusCode, error, message }`; `message` is meant for a person. */
export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  /** The request parameter the message is about, when there is one (lets the browser place it next to its field). */
  param: z.string().optional(),
});
/** An API error body. */
export type ErrorBody = z.infer<typeof errorBodySchema>;
