/** The success envelope `{success: true, message, data}` (docs/rules/api.md#A2). */
export function ok<T>(data: T, message = 'OK') {
  return { success: true as const, message, data };
}

/** The envelope plus `code: 200`, for the calls whose clients read the body's code as success. */
export function okWithCode<T>(data: T, message = 'OK') {
  return { ...ok(data, message), code: 200 as const };
}
