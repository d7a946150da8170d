/** Browsers' words for a script module that did not load (Chromium, Firefox, Safari), and Vite's for its CSS. */
const CODE_NOT_LOADED = /dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

/** A lazily loaded part's code did not arrive (a dropped connection, a deploy that removed the old chunk). */
export function isCodeNotLoaded(error: unknown): boolean {
  return error instanceof Error && CODE_NOT_LOADED.test(error.message);
}

/**
 * Why such a part is missing, in Korean, never the browser's English: the reason of a failed page's load error,
 * and a toast's whole line. (Importing the contract's messages here made the bundler split the entry: ADR 0264.)
 */
export const CODE_NOT_LOADED_REASON = '화면을 불러오지 못했습니다. 네트워크 연결을 확인해주세요.';
