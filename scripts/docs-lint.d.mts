/** Types for docs-lint.mjs (checked by the server suite's docs-lint test). */
export function docsViolations(root: string): string[];
export function provedByNames(cell: string): Array<{ file: string | null; titles: string[] }>;
