import { MSG } from '@ohgood/contract/messages';
import { ApiError } from './api-client';
import { CODE_NOT_LOADED_REASON, isCodeNotLoaded } from './code-not-loaded';

/**
 * The reason in '오류가 발생했습니다: {reason}' (a list or page that fails to load), said once: a network failure names the
 * network instead of repeating '오류가 발생했습니다', and '다시 시도해주세요' is left to the retry button. Never the
 * browser's English: a page's code that did not arrive says so in Korean.
 */
export function loadErrorReason(error: unknown): string {
  if (error instanceof ApiError && error.code === 'SERVICE_UNAVAILABLE') return MSG.serviceUnavailable;
  if (error instanceof ApiError && error.code === 'NETWORK_ERROR') return '네트워크 연결을 확인해주세요.';
  if (isCodeNotLoaded(error)) return CODE_NOT_LOADED_REASON;
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*다시 시도해\s?주세요\.?$/, '').trim() || MSG.requestFailed;
}

/** The line a failed load shows: a brief outage gets one calm line alone, anything else names its reason. */
export function loadErrorText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'SERVICE_UNAVAILABLE') return MSG.serviceUnavailable;
  return MSG.genericError(loadErrorReason(error));
}
