import { type CommentItem, type CommentsResponse, commentItem } from '@ohgood/contract/shorts';
import { SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import { type JsonText, okListText } from '../../http/json-text';

/** A comment as read with its author (shared by every reader; cached per short, `caches.ts`). */
export type CommentRow = {
  id: number;
  parentId: number | null;
  content: string;
  deletedAt: Date | null;
  createdAt: Date;
  customerId: number;
  nickname: string;
  profileImg: string | null;
};

/** Only its author may delete a comment, and only while it is not deleted. */
const deletableBy = (row: CommentRow, viewer: number | null) => row.deletedAt === null && viewer === row.customerId;

/** A listed comment as the contract shows it to `viewer` (a deleted one keeps only its place in the thread). */
export function commentItemOf(row: CommentRow, viewer: number | null): CommentItem {
  const deleted = row.deletedAt !== null;
  return {
    commentId: row.id,
    gno: row.parentId ?? 0,
    content: deleted ? SHORTS_MSG.deletedComment : row.content,
    nickname: deleted ? '' : row.nickname,
    profileImg: deleted ? null : row.profileImg,
    date: row.createdAt.toISOString(),
    deletable: deletableBy(row, viewer),
    deleted,
    customerId: deleted ? 0 : row.customerId,
  };
}

/** A comment without its one viewer field, checked (and stripped of anything undeclared) like the whole body. */
const openComment = commentItem.omit({ deletable: true });

/**
 * Each row's comment as JSON text, an object left open for `deletable`. Rows from the comment-rows cache are
 * the same objects until that short's comments change, so each is checked and written once while cached.
 */
const openComments = new WeakMap<CommentRow, Buffer>();

function openCommentOf(row: CommentRow): Buffer {
  let open = openComments.get(row);
  if (!open) {
    const { deletable: _, ...item } = commentItemOf(row, null);
    open = Buffer.from(JSON.stringify(openComment.encode(item)).slice(0, -1));
    openComments.set(row, open);
  }
  return open;
}

const DELETABLE = Buffer.from(',"deletable":true}');
const NOT_DELETABLE = Buffer.from(',"deletable":false}');

/**
 * The comment list's body (`commentsResponse`) as JSON text: each comment is its row's cached part plus the
 * viewer's `deletable`, so a signed-in list of a hundred comments costs no per-request check and
 * serialization of the whole body (ADR 0154, as the feed's items, ADR 0108). `comments-json.test.ts` holds it
 * equal to the schema-checked body.
 */
export function commentsJson(rows: readonly CommentRow[], viewer: number | null): JsonText<CommentsResponse> {
  return okListText(rows.map((row) => [openCommentOf(row), deletableBy(row, viewer) ? DELETABLE : NOT_DELETABLE]));
}
