/** Types for house-rules.mjs (checked by the server suite's house-rules test). */
export function houseRuleViolations(root: string): string[];
