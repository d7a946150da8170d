/**
 * The in-app scanner accepts the deep link `/qrpin?code=<token>` or the bare token (docs/rules/payments.md#P3). Shared
 * so the server matches and the web app recognises a code it has already handled the same way.
 */
export function qrTokenFrom(value: string): string {
  const trimmed = value.trim();
  const match = /[?&]code=([^&#]*)/.exec(trimmed);
  if (!match) return trimmed;
  try {
    return decodeURIComponent((match[1] ?? '').replace(/\+/g, ' ')) || trimmed;
  } catch {
    return trimmed;
  }
}
