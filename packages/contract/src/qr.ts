/**
 * The in-app scanner accepts the deep link `/qrpin?code=<token>` or the bare token (domain §4). Shared so
 * the server matches and the web app recognises a code it has already handled the same way.
 */
export function qrTokenFrom(value: string): string {
  const trimmed = value.trim();
  if (!trimmed.includes('code=')) return trimmed;
  try {
    return new URL(trimmed, 'https://ohgood.invalid').searchParams.get('code') ?? trimmed;
  } catch {
    return trimmed;
  }
}
