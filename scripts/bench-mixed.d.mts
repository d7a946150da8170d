/** Types for the parts of bench-mixed.mjs the server suite checks (bench-budgets.test.ts). */
export const READ_BUDGET_MS: number;
export const MONEY_WRITE_BUDGET_MS: number;
export const UPLOAD_MS_PER_MB: number;
export function budgetOf(type: string, uploadBytes?: number): number;
export function withinBudgets(types: ReadonlyArray<{ p99: number; budget: number; errors: number }>): boolean;
