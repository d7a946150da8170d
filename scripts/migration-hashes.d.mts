/** Types for migration-hashes.mjs (checked by the server suite's migration-hashes test). */
export function migrationHashes(root: string): Record<string, string>;
export function recordedHashes(root: string): Record<string, string>;
export function migrationProblems(root: string, options?: { allowNew?: boolean }): string[];
export function addNewHashes(root: string): string[];
export function journalProblems(root: string, committed?: Array<{ tag: string; when: number }>): string[];
