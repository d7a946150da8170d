/** The spec's alerts, in one place so they can be changed to a toast later without hunting for them. */
export function notify(message: string): void {
  window.alert(message);
}
