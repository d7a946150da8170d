import { type CommentItem, type CommentsResponse, commentItem } from '@ohgood/contract/shorts';
import { SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import { JsonText } from '../../http/json-text';
import { ok } from '../../lib/envelope';

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
    deletable: !deleted && viewer === row.customerId,
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
/** `{"success":true,"message":"OK","data":[` — the envelope up to its list. */
const DATA_OPEN = Buffer.from(`${JSON.stringify(ok(null)).replace(/,"data":null}$/, '')},"data":[`);
const COMMA = Buffer.from(',');
const DATA_CLOSE = Buffer.from(']}');

/**
 * The comment list's body (`commentsResponse`) as JSON text: each comment is its row's cached part plus the
 * viewer's `deletable`, so a signed-in list of a hundred comments costs no per-request check and
 * serialization of the whole body (ADR 0154, as the feed's items, ADR 0108). `comments-json.test.ts` holds it
 * equal to the schema-checked body.
 */
export function commentsJson(rows: readonly CommentRow[], viewer: number | null): JsonText<CommentsResponse> {
  const parts: Buffer[] = [DATA_OPEN];
  rows.forEach((row, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(openCommentOf(row), row.deletedAt === null && viewer === row.customerId ? DELETABLE : NOT_DELETABLE);
  });
  parts.push(DATA_CLOSE);
  return new JsonText(Buffer.concat(parts));
}
