/** Shorts texts and rules without zod, so web chunks can import them cheaply. */
/** Korean texts of the shorts screens and API (docs/rules/shorts.md, docs/rules/points.md#R5–R6). */
export const SHORTS_MSG = {
  uploadFieldsRequired: '영상, 제목, 내용을 모두 입력해주세요.',
  videoOnly: '동영상 파일만 선택 가능합니다.',
  uploadError: '업로드 중 오류가 발생했습니다',
  uploadSuccess: '업로드가 완료되었습니다.',
  uploading: '업로드 중...',
  uploadSending: '영상을 올리는 중이에요.',
  /** The upload's own card while its bytes go: the whole percent sent. */
  uploadPercent: (percent: number) => `업로드 중 ${percent}%`,
  uploadProcessing: '영상을 변환하고 있어요. 끝나면 피드에서 바로 재생돼요.',
  /** On the upload page after a new login brought the customer back to an upload that was refused. */
  uploadRestored: '올리던 영상과 글을 다시 불러왔어요. 업로드를 눌러 이어서 올려 주세요.',
  noRecording: '녹화된 영상이 없습니다.',
  cameraPermission: '카메라 권한을 확인해 주세요.',
  recordingError: '녹화 영상을 처리하는 중 오류가 발생했습니다.',
  feedLoading: '쇼츠를 불러오는 중...',
  feedError: '쇼츠를 불러오지 못했습니다.',
  feedEmpty: '쇼츠 영상이 없습니다.',
  commentsEmpty: '아직 댓글이 없어요. 첫 댓글을 남겨보세요!',
  commentsError: '댓글을 불러올 수 없습니다.',
  deletedComment: '삭제된 댓글입니다.',
  selfSubscribe: '자기 자신은 구독할 수 없습니다.',
  earnLoginNeeded: '로그인하면 시청 포인트를 받을 수 있어요.',
  dailyLimit: '오늘의 포인트 한도를 초과했습니다.',
  earned: (points: number) => `${points}P 적립되었습니다!`,
  shareCopied: '복사됨',
} as const;

/** Points for watching (docs/rules/points.md#R5): max(1, round(watchedSeconds × 10 / 60)). */
export function watchPoints(watchedSeconds: number): number {
  return Math.max(1, Math.round((watchedSeconds * 10) / 60));
}

/**
 * The least watching that pays (as PeerTube counts a view): 3 s, or half of a shorter short.
 * The gauge's goal (`requiredWatchSeconds`) is always at least this.
 */
export function minimumWatchSeconds(durationSeconds: number): number {
  return Math.min(3, durationSeconds / 2);
}

/** Seconds of play the gauge requires before it asks for points: duration − 1, at least 1; 10 when unknown. */
export function requiredWatchSeconds(durationSeconds: number | null | undefined): number {
  if (!durationSeconds || !Number.isFinite(durationSeconds) || durationSeconds <= 0) return 10;
  return Math.max(1, Math.round((durationSeconds - 1) * 10) / 10);
}
