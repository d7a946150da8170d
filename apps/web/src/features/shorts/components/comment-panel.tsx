import { mediaUrl } from '@ohgood/contract/media-url';
import type { CommentItem } from '@ohgood/contract/shorts';
import { SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import { CircleUserRound, Send, Trash2, X } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../shared/api-client';
import { confirmSheet } from '../../../shared/confirm';
import { relativeTime } from '../../../shared/format';
import { notify } from '../../../shared/notify';
import buttons from '../../../shared/ui/button.module.css';
import { RetryButton } from '../../../shared/ui/page';
import { useReturnFocus } from '../../../shared/use-return-focus';
import { useAddComment, useComments, useDeleteComment } from '../api/shorts-api';
import { buildCommentTree } from '../feed-logic';
import styles from './feed.module.css';
import { ReportSheet } from './report-sheet-slot';

export interface CommentPanelProps {
  shortsId: number;
  mediaBase: string;
  gate(): boolean;
  onClose(): void;
  onCountChange(count: number): void;
}

/** Comment panel (docs/rules/shorts.md#S4): list with one reply level, '@nickname ' replies, delete when deletable. */
export function CommentPanel({ shortsId, mediaBase, gate, onClose, onCountChange }: CommentPanelProps) {
  const list = useComments(shortsId);
  const comments = list.data ?? null;
  const failed = list.isError;
  const addComment = useAddComment(shortsId);
  const deleteComment = useDeleteComment(shortsId);
  const [text, setText] = useState('');
  const [replyTo, setReplyTo] = useState<{ commentId: number; nickname: string } | null>(null);
  const [sending, setSending] = useState(false);
  const [reporting, setReporting] = useState<number | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useReturnFocus();

  // Each list read tells the feed how many comments the short has now.
  useEffect(() => {
    if (list.data) onCountChange(list.data.filter((c) => !c.deleted).length);
  }, [list.data, onCountChange]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const content = text.trim();
    if (!content || sending) return; // empty text is not sent
    if (!gate()) return;
    setSending(true);
    try {
      await addComment.mutateAsync({ content, gno: replyTo?.commentId ?? 0 });
      setText('');
      setReplyTo(null);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) {
        notify(error instanceof Error ? error.message : SHORTS_MSG.commentsError);
      }
    } finally {
      setSending(false);
    }
  };

  const reply = (comment: CommentItem) => {
    if (!gate()) return;
    setReplyTo({ commentId: comment.commentId, nickname: comment.nickname });
    setText(`@${comment.nickname} `);
    input.current?.focus();
  };

  const remove = async (comment: CommentItem) => {
    if (!(await confirmSheet({ title: '댓글을 삭제할까요?', confirmLabel: '삭제', danger: true }))) return;
    try {
      await deleteComment.mutateAsync(comment.commentId);
    } catch (error) {
      notify(error instanceof Error ? error.message : '댓글 삭제에 실패했습니다.');
    }
  };

  const row = (comment: CommentItem, isReply: boolean) => (
    <div className={styles.comment} data-testid="comment">
      {comment.profileImg ? (
        <img className={styles.commentAvatar} src={mediaUrl(mediaBase, comment.profileImg)} alt="" />
      ) : (
        <CircleUserRound className={styles.commentAvatar} aria-hidden />
      )}
      <div className={styles.commentBody}>
        {!comment.deleted && (
          <p className={styles.commentMeta}>
            <strong>{comment.nickname}</strong> <span>{relativeTime(comment.date)}</span>
          </p>
        )}
        <p className={comment.deleted ? styles.commentDeleted : styles.commentText}>{comment.content}</p>
        <div className={styles.commentActions}>
          {!isReply && !comment.deleted && (
            <button type="button" className={styles.commentAction} onClick={() => reply(comment)}>
              답글
            </button>
          )}
          {!comment.deleted && !comment.deletable && (
            <button
              type="button"
              className={styles.commentAction}
              onClick={() => gate() && setReporting(comment.commentId)}
              aria-label={`${comment.nickname}님의 댓글 신고`}
            >
              신고
            </button>
          )}
          {comment.deletable && (
            <button
              type="button"
              className={styles.commentAction}
              onClick={() => remove(comment)}
              aria-label="댓글 삭제"
            >
              <Trash2 size={14} aria-hidden /> 삭제
            </button>
          )}
        </div>
      </div>
    </div>
  );

  const tree = comments ? buildCommentTree(comments) : [];
  return (
    <div className={styles.backdrop}>
      <button type="button" className={styles.scrim} onClick={onClose} aria-label="패널 닫기" tabIndex={-1} />
      <section className={styles.sheet} role="dialog" aria-modal="true" aria-labelledby="comments-title">
        <div className={styles.sheetHeader}>
          <h2 id="comments-title">댓글</h2>
          <button
            type="button"
            className={`${buttons.icon} ${styles.iconButton}`}
            onClick={onClose}
            aria-label="댓글 닫기"
          >
            <X size={20} aria-hidden />
          </button>
        </div>
        <div className={styles.commentList}>
          {failed && (
            <div className={styles.sheetEmpty} role="alert">
              <p>{SHORTS_MSG.commentsError}</p>
              <RetryButton onRetry={() => void list.refetch()} />
            </div>
          )}
          {!failed && comments === null && <p className={styles.sheetEmpty}>불러오는 중...</p>}
          {!failed && comments !== null && tree.length === 0 && (
            <p className={styles.sheetEmpty}>{SHORTS_MSG.commentsEmpty}</p>
          )}
          {tree.map((node) => (
            <div key={node.commentId}>
              {row(node, false)}
              {node.replies.length > 0 && (
                <div className={styles.replies}>
                  {node.replies.map((r) => (
                    <div key={r.commentId}>{row(r, true)}</div>
                  ))}
                </div>
              )}
            </div>
          ))}
        </div>
        <form className={styles.commentForm} onSubmit={submit}>
          <label htmlFor="comment-input" className="visually-hidden">
            댓글 입력
          </label>
          <input
            id="comment-input"
            ref={input}
            value={text}
            maxLength={300}
            onChange={(e) => {
              setText(e.target.value);
              if (replyTo && !e.target.value.startsWith(`@${replyTo.nickname}`)) setReplyTo(null);
            }}
            placeholder={replyTo ? `@${replyTo.nickname}님에게 답글` : '댓글을 입력하세요'}
            autoComplete="off"
          />
          <button type="submit" className={styles.sendButton} aria-label="댓글 등록" disabled={sending || !text.trim()}>
            <Send size={18} aria-hidden />
          </button>
        </form>
      </section>
      {reporting !== null && (
        <ReportSheet targetType="COMMENT" targetId={reporting} onClose={() => setReporting(null)} />
      )}
    </div>
  );
}
