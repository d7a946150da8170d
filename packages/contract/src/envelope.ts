import { z } from 'zod';

/** The success envelope of spec §7: `{success: true, message, data}`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), message: z.string(), data });
}

/** The one error shape of the API (architecture doc, "API conventions"). */
export const errorBody = z.object({
  success: z.literal(false),
  code: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof errorBody>;
