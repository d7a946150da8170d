import type { StaffRole } from '@ohgood/contract/endpoint';
import { opsCollectionsEndpoints as api, type JobRow } from '@ohgood/contract/ops-collections';
import { useState } from 'react';
import { collectionsChanges, useJobs } from '../api/collections-queries';
import { useConsoleAction } from '../api/queries';
import { callOps } from '../api/staff-api';
import { ActionButton } from '../components/action-dialog';
import { minute, Status } from '../components/console-ui';
import styles from '../components/ops-console.module.css';
import { canCall } from '../console-access';

/** Each job in Korean; one added later shows as its name until it is named here. */
const JOB_LABELS: Record<string, string> = {
  'auto-extension': '자동 연장',
  overdue: '연체 처리',
  'statement-issue': '청구서 발행',
  prune: '오래된 데이터 정리',
  reminders: '납부 알림',
  autopay: '자동 납부',
  reconciliation: '일일 대사',
  settlement: '가맹점 정산 마감',
  'catch-up': '빠진 기간 따라잡기',
  'payment-expiry': '결제 요청 만료',
  'autopay-debits': '출금 실행 (재시도 포함)',
  'settlement-payouts': '가맹점 정산 지급',
  'push-sending': '푸시 발송',
  'webhook-sending': '웹훅 발송',
  'media-sweep': '미디어 정리',
  'ranking-refresh': '피드 순위 갱신',
  'transcode-takeover': '트랜스코딩 인계',
};

/** Where a job runs: once in the cluster, or on every server for its own process. */
const SCOPE_LABELS: Record<JobRow['scope'], string> = { cluster: '클러스터에서 한 번', instance: '서버마다' };

/** What a run's counts are called; a count added later shows as its key. */
const COUNT_LABELS: Record<string, string> = {
  issued: '발행',
  extended: '연장',
  overdue: '연체',
  planned: '출금 예정',
  reminded: '알림',
  suspended: '결제 정지',
  day: '대사일',
  mismatches: '불일치',
  notices: '지난 알림 삭제',
  idempotencyKeys: '멱등 키 삭제',
  rateLimitCounters: '제한 기록 삭제',
  skipped: '건너뜀',
  settlements: '정산',
  lines: '정산 거래',
  handled: '처리',
  runs: '실행',
  paid: '완료',
  failed: '실패',
  retrying: '재시도 예정',
  owedDeleted: '삭제',
  owedFailed: '삭제 실패',
  orphansDeleted: '고아 객체 삭제',
};

/** A run's finish: the time alone on the day it started, else the full minute (a catch-up run). */
const finishOf = (startedAt: string, finishedAt: string) =>
  finishedAt.slice(0, 10) === startedAt.slice(0, 10) ? minute(finishedAt).slice(11) : minute(finishedAt);

function resultText(result: Record<string, unknown> | null): string {
  if (!result) return '진행 중';
  if (typeof result.error === 'string') return `실패: ${result.error}`;
  if (result.skipped === 'late') return '건너뜀 (시각이 지난 알림)';
  const parts = Object.entries(result)
    // An alert's sentence is on the home and the reconciliation screen; the counts are what a run did.
    .filter(([key, value]) => key !== 'alert' && (typeof value === 'number' || typeof value === 'string'))
    .map(
      ([key, value]) =>
        `${COUNT_LABELS[key] ?? key} ${typeof value === 'number' ? value.toLocaleString('ko-KR') : value}`,
    );
  return parts.length > 0 ? parts.join(' · ') : '완료';
}

/**
 * Every job of the server's registry (RISK, ADMIN; docs/rules/operations.md#O22): each job's schedule and
 * scope, latest runs with their counts (or error), next run and, for the calendar jobs, missed periods; an
 * admin re-runs a calendar job's missed period, which runs once in the cluster.
 */
export function Jobs({ staffRole }: { staffRole: StaffRole }) {
  const jobs = useJobs();
  const canRerun = canCall(api.rerunJob, staffRole);
  return (
    <section className={styles.card} aria-labelledby="jobs-title">
      <h2 id="jobs-title">예약 작업</h2>
      <p className={styles.muted}>
        시각은 모두 한국 시간이에요. 빠진 기간은 그 작업이 한 번이라도 실행된 뒤로 실행 기록이 없는 날(월)이에요. 수시
        작업은 실행마다 밀린 일을 모두 처리하므로 빠진 기간이 없고, 서버마다 도는 작업의 실행 기록은 이 화면에 응답한
        서버의 것이에요.
      </p>
      <Status read={jobs} />
      {jobs.data && (
        <table className={styles.table}>
          <thead>
            <tr>
              <th>작업</th>
              <th>일정</th>
              <th>실행 범위</th>
              <th>최근 실행</th>
              <th>다음 실행</th>
              <th>빠진 기간</th>
            </tr>
          </thead>
          <tbody>
            {jobs.data.items.map((job) => (
              <JobLine key={job.job} job={job} canRerun={canRerun} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function JobLine({ job, canRerun }: { job: JobRow; canRerun: boolean }) {
  const label = JOB_LABELS[job.job] ?? job.job;
  return (
    <tr>
      <th scope="row">
        {label}
        <br />
        <span className={styles.muted}>{job.job}</span>
      </th>
      <td>
        {job.scheduleText}
        <br />
        <code className={styles.muted}>{job.schedule}</code>
      </td>
      <td>{SCOPE_LABELS[job.scope]}</td>
      <td>
        {job.lastRuns.length === 0 ? (
          <span className={styles.muted}>실행 기록 없음</span>
        ) : (
          <ul aria-label={`${label} 최근 실행`}>
            {job.lastRuns.map((run) => (
              <li key={run.period}>
                {job.cadence !== 'recurring' && <strong>{run.period} </strong>}
                {minute(run.startedAt)}
                {run.finishedAt ? ` → ${finishOf(run.startedAt, run.finishedAt)}` : ''} ·{' '}
                {run.outcome === 'failed' ? (
                  <span className={styles.tagDanger}>{resultText(run.result)}</span>
                ) : (
                  resultText(run.result)
                )}
              </li>
            ))}
          </ul>
        )}
      </td>
      <td>{minute(job.nextRun)}</td>
      <td>
        {job.cadence === 'recurring' ? (
          <span className={styles.muted}>해당 없음</span>
        ) : job.missed.length === 0 ? (
          <span className={styles.muted}>없음</span>
        ) : (
          <ul aria-label={`${label} 빠진 기간`}>
            {job.missed.map((period) => (
              <li key={period}>
                <span className={styles.tagDanger}>{period}</span>{' '}
                {canRerun && job.rerunnable && <Rerun job={job} label={label} period={period} />}
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

function Rerun({ job, label, period }: { job: JobRow; label: string; period: string }) {
  const [answer, setAnswer] = useState<string | null>(null);
  const rerun = useConsoleAction(
    (reason: string) =>
      callOps(api.rerunJob, {
        params: { job: job.job },
        // A monthly job's period is its month; the server runs it on its day of that month.
        body: { date: period.length === 7 ? `${period}-01` : period, reason },
      }),
    () => collectionsChanges.job(),
  );
  return (
    <>
      <ActionButton
        label="다시 실행"
        title={`${label} ${period} 다시 실행`}
        variant="linkButton"
        summary={`${label} 작업의 ${period} 기간을 지금 실행합니다. 여러 서버가 있어도 한 번만 실행돼요.`}
        run={async (reason) => setAnswer(resultText((await rerun(reason)).result))}
      />
      {answer && <span role="status">{answer}</span>}
    </>
  );
}
