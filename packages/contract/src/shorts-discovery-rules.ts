/** Search, profile and shorts-my-page texts and rules without zod, so web chunks can import them cheaply. */

/** Korean texts of the discovery screens: labels, empty states and failure messages. */
export const DISCOVERY_MSG = {
  searchPlaceholder: '검색어를 입력해주세요.',
  searching: 'searching...',
  searchEmpty: (q: string) => `'${q}'에 대한 검색 결과가 없습니다.`,
  searchPrompt: '검색어를 입력해 쇼츠를 찾아보세요.',
  searchFailed: '검색 중 오류가 발생했습니다.',
  profileEmpty: '쇼츠 피드가 텅 비어있어요!',
  sortLatest: '최신순',
  sortLike: '인기순',
  sortOldest: '날짜순',
  editProfile: '프로필 수정',
  nicknameTaken: '이미 사용 중인 이름입니다. 다른 이름을 입력해주세요.',
  invisibleChars: '보이지 않는 문자나 방향 제어 문자는 쓸 수 없습니다.',
  subscribe: '구독',
  unsubscribe: '구독 취소',
  subscribers: '구독자',
  videos: '동영상',
  nicknameRequired: '이름을 입력해주세요.',
  imageOnly: '이미지 파일만 선택 가능합니다.',
  saving: '저장 중...',
  confirm: '확인',
  editSuccess: '프로필이 성공적으로 수정되었습니다.',
  editServerError: (status: number) => `프로필 수정에 실패했습니다. (오류 코드: ${status})`,
  editNetworkError: '네트워크 오류가 발생했습니다. 다시 시도해주세요.',
  editOtherError: '프로필 수정에 실패했습니다. 다시 시도해주세요.',
  imageTooLarge: '이미지는 5MB 이하만 올릴 수 있습니다.',
  viewChannel: '내 채널 보기',
  subscriptions: '구독',
  all: '전체',
  likedVideos: '좋아요 표시한 동영상',
  commentedVideos: '댓글 단 동영상',
  viewAll: '전체 보기',
  noComments: '댓글을 단 영상이 없습니다.',
  noSubscriptions: '구독한 사용자가 없습니다',
  noLikes: '좋아요를 표시한 영상이 없습니다',
  listLoadingMore: '더 불러오는 중...',
  listAllLoaded: '모든 항목을 불러왔습니다.',
  listScrollMore: '스크롤하여 더 보기',
  unsubscribed: '구독이 취소되었습니다.',
  unsubscribeFailed: '구독 취소에 실패했습니다.',
  loading: '불러오는 중...',
} as const;

export const DISCOVERY_LIMITS = {
  profilePageSize: 12,
  profileImageMaxBytes: 5 * 1024 * 1024,
  /** Stored avatar edge in pixels (square WebP). */
  avatarSize: 256,
} as const;

/** True when the query is only Hangul compatibility consonants (and spaces), e.g. 'ㅋㅍ'. */
export function isChoseongQuery(text: string): boolean {
  return /^[\u3131-\u314e\s]+$/u.test(text) && /\S/u.test(text);
}
