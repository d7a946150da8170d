/** The success envelope `{success: true, message, data}` (docs/rules/api.md#A2). */
export function ok<T>(data: T, message = 'OK') {
  return { success: true as const, message, data };
}
