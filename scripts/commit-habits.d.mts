/** Types for commit-habits.mjs (checked by the server suite's commit-habits test). */
export const HABITS_SINCE: string;
export function commitProblems(commit: {
  hash: string;
  subject: string;
  body: string;
  parents: string[];
  files: string[];
  ownEdits?: string;
}): string[];
export function habitViolations(root: string, base?: string): { problems: string[]; note: string };
