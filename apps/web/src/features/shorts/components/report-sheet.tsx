import type { ReportRequest } from '@ohgood/contract/safety';
import {
  BLOCK_AND_REPORT,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  type ReportReason,
  type ReportTarget,
  SAFETY_MSG,
} from '@ohgood/contract/safety-rules';
import { type FormEvent, useId, useRef, useState } from 'react';
import { ApiError } from '../../../shared/api-client';
import { notify } from '../../../shared/notify';
import buttons from '../../../shared/ui/button.module.css';
import { LimitedField } from '../../../shared/ui/limited-field';
import { Modal } from '../../../shared/ui/modal';
import { useReport } from '../api/report-api';
import styles from './report-sheet.module.css';

export const REPORT_COPY = {
  legend: '신고 사유',
  privacy: '신고한 사람은 상대에게 알려지지 않아요.',
  chooseReason: '신고 사유를 선택해주세요.',
  failed: '신고를 접수하지 못했어요. 잠시 후 다시 시도해 주세요.',
} as const;

const TARGET_NAME: Record<ReportTarget, string> = { SHORT: '영상', COMMENT: '댓글' };

export interface ReportSheetProps {
  targetType: ReportTarget;
  targetId: number;
  onClose(): void;
}

/** What stops the report: the missing text of 기타 (said at its field), or anything else (said above the buttons). */
type Problem = { at: 'text' | 'form'; message: string } | null;

/**
 * '신고하기' for a short or a comment (docs/rules/shorts.md#S10): one reason, 기타 with its text. A toast
 * confirms; a second report of the same item closes with the server's calm '이미 신고한 콘텐츠입니다.'.
 */
export default function ReportSheet({ targetType, targetId, onClose }: ReportSheetProps) {
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<Problem>(null);
  const report = useReport();
  const textField = useRef<HTMLTextAreaElement>(null);
  const formErrorId = useId();
  const needsText = reason === 'OTHER';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (report.isPending) return;
    if (!reason) {
      setProblem({ at: 'form', message: REPORT_COPY.chooseReason });
      return;
    }
    const body: ReportRequest = { targetType, targetId, reason, ...(needsText ? { text: text.trim() } : {}) };
    if (needsText && !body.text) {
      setProblem({ at: 'text', message: SAFETY_MSG.otherNeedsText });
      textField.current?.focus();
      return;
    }
    setProblem(null);
    try {
      await report.mutateAsync(body);
      onClose();
      notify(SAFETY_MSG.reported);
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'ALREADY_REPORTED') {
        onClose();
        notify(SAFETY_MSG.alreadyReported);
        return;
      }
      setProblem({ at: 'form', message: failure instanceof ApiError ? failure.message : REPORT_COPY.failed });
    }
  };

  const formError = problem?.at === 'form' ? problem.message : null;
  return (
    <Modal open title={`${TARGET_NAME[targetType]} 신고하기`} onClose={onClose}>
      <form className={styles.form} onSubmit={submit} noValidate data-testid="report-sheet">
        <fieldset className={styles.reasons} aria-describedby={formError ? formErrorId : undefined}>
          <legend className={styles.legend}>{REPORT_COPY.legend}</legend>
          <p className={styles.privacy}>{REPORT_COPY.privacy}</p>
          {REPORT_REASONS.map((value) => (
            <label key={value} className={styles.reason}>
              <input
                type="radio"
                name="report-reason"
                value={value}
                checked={reason === value}
                onChange={() => {
                  setReason(value);
                  setProblem(null);
                }}
              />
              <span>{REPORT_REASON_LABELS[value]}</span>
            </label>
          ))}
        </fieldset>
        {needsText && (
          <LimitedField
            ref={textField}
            label="기타 사유"
            value={text}
            onChange={(next) => {
              setText(next);
              if (problem?.at === 'text') setProblem(null);
            }}
            maxLength={BLOCK_AND_REPORT.reportTextMax}
            rows={3}
            placeholder="어떤 점이 문제인지 알려주세요."
            counted
            error={problem?.at === 'text' ? problem.message : null}
          />
        )}
        {formError && (
          <p id={formErrorId} className={styles.error} role="alert">
            {formError}
          </p>
        )}
        <div className={styles.actions}>
          <button type="button" className={buttons.ghost} onClick={onClose}>
            취소
          </button>
          <button type="submit" className={buttons.danger} disabled={report.isPending}>
            {report.isPending ? '접수 중...' : '신고하기'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
