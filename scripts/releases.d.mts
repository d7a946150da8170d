/** Types for releases.mjs (read by the upgrade test). */
export interface Release {
  version: string;
  date: string;
  commit: string;
}
export function releases(root: string): Release[];
export function latestRelease(root: string): Release;
