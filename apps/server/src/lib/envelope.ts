/** The success envelope of spec §7. */
export function ok<T>(data: T, message = 'OK') {
  return { success: true as const, message, data };
}
