/** Types for house-rules.mjs (checked by the server suite's house-rules test). */
export function houseRuleViolations(root: string): string[];
export const APP_TIMERS_ALLOWED: readonly string[];
export function appTimerViolations(root: string, allowed?: readonly string[]): string[];
export const SERVICE_MAX_LINES: number;
export function serviceSizeViolations(root: string, files: readonly string[], max?: number): string[];
