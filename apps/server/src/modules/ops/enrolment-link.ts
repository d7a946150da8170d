/** The console page where a new operator sets a password and scans the TOTP QR (docs/rules/operations.md#O3). */
export function enrolmentPath(token: string): string {
  return `/ops/enrol/${token}`;
}
