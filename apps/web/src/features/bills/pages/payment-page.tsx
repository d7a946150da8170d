import { bankName, maskAccount } from '@ohgood/contract/bank';
import { BILL_MSG } from '@ohgood/contract/bill-messages';
import type { BillStatus, PaymentInfo } from '@ohgood/contract/bills';
import type { QueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../../shared/api-client';
import { won } from '../../../shared/format';
import { notify } from '../../../shared/notify';
import { BelowFold } from '../../../shared/ui/below-fold';
import buttons from '../../../shared/ui/button.module.css';
import { Modal } from '../../../shared/ui/modal';
import { ErrorText, lazyPart, Page, PaymentSkeleton } from '../../../shared/ui/page';
import { TOAST_CLEARANCE } from '../../../shared/ui/toaster';
import { autopayQuery, useAutopayAnswered } from '../api/autopay-api';
import {
  billStatusQuery,
  paymentInfoQuery,
  useBillStatus,
  useExtension,
  usePaymentInfo,
  useRepay,
} from '../api/bills-api';
import { checkExtension, EXTENSION_REFUSAL, groupBills, monthLabel, paymentMonth, selectableIds } from '../bill-rules';
import AutopayToggle from '../components/autopay-toggle';
import { AvailableCard } from '../components/available-card';
import styles from '../components/bills.module.css';
import { DueCard } from '../components/due-card';
import { SuspensionNotice } from '../components/suspension-notice';

/**
 * The unpaid list's code: below the first screen, it is not part of the page's chunk. Asked for when the page
 * mounts, beside its data, so it is in by the time the list is shown. A failed fetch shows in the list's place.
 */
const loadUnpaidList = () => import('../components/unpaid-list');
const UnpaidList = lazyPart(() => loadUnpaidList().then((m) => m.UnpaidList));

/** What the page waits for before leaving its skeleton (app/page-table.ts). */
export function startFirstScreenRequests(client: QueryClient): void {
  void client.prefetchQuery(paymentInfoQuery);
  void client.prefetchQuery(billStatusQuery);
  void client.prefetchQuery(autopayQuery);
}

/**
 * /payment: available amount, upcoming payments, unpaid lines, extension and immediate payment
 * (docs/rules/bills-and-grades.md#B3–B8).
 */
export default function PaymentPage() {
  const info = usePaymentInfo();
  const status = useBillStatus();
  // Asked for beside the page's own answers, and waited for: the autopay card sits above the statements, and
  // arriving later (its request started only when the card mounted) it grew from its one-line loading text to
  // the full card and pushed them down (Lighthouse's mobile run read a layout shift of 0.088 on this page).
  // A failed answer does not hold the page: the card shows its own retry.
  const autopayAnswered = useAutopayAnswered();
  // Only a head start: should it fail, the list's own render asks again, and the failure shows there.
  useEffect(() => void loadUnpaidList().catch(() => undefined), []);
  // Rendered from deferred copies: the screen built when the data arrives is a background render that yields
  // to the browser, not one long task (a query's update is otherwise synchronous; ADR 0142).
  const infoData = useDeferredValue(info.data);
  const statusData = useDeferredValue(status.data);
  const error = info.error ?? status.error;
  if (!(infoData && statusData && autopayAnswered) && !error) return <PaymentSkeleton />;
  return (
    <Page title="납부하기">
      {infoData && statusData ? (
        <PaymentView info={infoData} status={statusData} />
      ) : (
        <ErrorText
          error={error}
          onRetry={() => {
            void info.refetch();
            void status.refetch();
          }}
        />
      )}
    </Page>
  );
}

type Dialog = 'none' | 'extension' | 'repay' | 'done';

/** The unpaid list's place until it comes: the demo list's height at 390 px (px). */
const UNPAID_LIST_HEIGHT = 641;

function extensionError(error: unknown): string {
  if (error instanceof ApiError && error.code === 'ALREADY_EXTENDED') return BILL_MSG.alreadyExtended;
  // The server's refusal names the rule that applies.
  if (error instanceof ApiError && error.code === 'EXTENSION_NOT_ALLOWED') return error.message;
  return BILL_MSG.extensionFailed;
}

function PaymentView({ info, status }: { info: PaymentInfo; status: BillStatus }) {
  const currentMonth = status.today.slice(0, 7);
  const groups = useMemo(() => groupBills(info.unpaidBills, currentMonth), [info.unpaidBills, currentMonth]);
  const selectable = useMemo(() => selectableIds(groups), [groups]);
  const [picked, setPicked] = useState<Set<number>>(new Set());
  // Lines paid or locked since they were ticked drop out of the selection by themselves.
  const selected = useMemo(() => new Set([...picked].filter((id) => selectable.has(id))), [picked, selectable]);
  const lines = groups.flatMap((g) => g.lines).filter((line) => selected.has(line.paymentId));
  const total = lines.reduce((sum, line) => sum + line.price, 0);
  const [dialog, setDialog] = useState<Dialog>('none');
  const [doneMessage, setDoneMessage] = useState('');
  const extension = useExtension();
  const repay = useRepay();
  const first = groups[0];
  const firstTotal = first?.lines.reduce((sum, line) => sum + line.price, 0) ?? 0;
  const overdue = status.statements.filter((s) => s.status === 'OVERDUE');

  const toggle = (id: number) =>
    setPicked((prev) => {
      const next = new Set([...prev].filter((p) => selectable.has(p)));
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const firstStatement = status.statements.find((s) => s.month === first?.month);
  const askExtension = () => {
    const check = checkExtension(groups, info.extension, firstStatement, status.today);
    if (check === 'ok') setDialog('extension');
    else notify(EXTENSION_REFUSAL[check]);
  };

  const askRepay = () => {
    if (selected.size === 0) notify(BILL_MSG.noSelection);
    else setDialog('repay');
  };

  const submitExtension = () =>
    extension.mutate(undefined, {
      onSuccess: () => {
        setDoneMessage(BILL_MSG.extensionSuccess);
        setDialog('done');
      },
      onError: (error) => {
        setDialog('none');
        notify(extensionError(error));
      },
    });

  const submitRepay = () =>
    repay.mutate([...selected], {
      onSuccess: () => {
        setPicked(new Set());
        setDoneMessage(BILL_MSG.repaySuccess);
        setDialog('done');
      },
      onError: (error) => {
        setDialog('none');
        // Autopay is debiting these lines right now: the server says so and when to look again (#B18).
        notify(
          error instanceof ApiError && error.code === 'AUTOPAY_IN_PROGRESS' ? error.message : BILL_MSG.repayFailed,
        );
      },
    });

  return (
    <div className={styles.stack}>
      {status.suspended ? (
        <SuspensionNotice
          reason={status.suspensionReason}
          overdueMonths={overdue.map((s) => s.month)}
          overdueAmount={status.overdueAmount}
        />
      ) : null}
      <AvailableCard
        balance={info.balance}
        limitPrice={info.limitPrice}
        gradeName={info.gradeName}
        limitChange={status.limitChange}
      />
      <AutopayToggle />

      {status.statements.length > 0 ? (
        <section aria-label="납부 예정" className={styles.dueList}>
          {status.statements.map((statement) => (
            <DueCard key={statement.month} statement={statement} today={status.today} />
          ))}
        </section>
      ) : null}

      {/* Below the first screen, and most of the page (83 of its 146 elements): its render and layout are a task
          of their own, not part of the one that shows the answer, and its code is not in the page's chunk
          (docs/performance.md, "/payment's unpaid list in a task of its own"). */}
      <BelowFold height={UNPAID_LIST_HEIGHT} className={styles.unpaid}>
        <UnpaidList
          groups={groups}
          selectable={selectable}
          selected={selected}
          statements={status.statements}
          onToggle={toggle}
          onToggleAll={(checked) => setPicked(checked ? new Set(selectable) : new Set())}
        />
      </BelowFold>

      <div className={styles.actionBar} {...TOAST_CLEARANCE}>
        <p className={styles.selectedTotal} aria-live="polite">
          선택 {selected.size}건 <strong>{won(total)}</strong>
        </p>
        <div className={styles.actionButtons}>
          <button type="button" className={buttons.secondary} onClick={askExtension}>
            연장 신청
          </button>
          <button type="button" className={buttons.primary} onClick={askRepay}>
            즉시 납부
          </button>
        </div>
      </div>

      <Modal open={dialog === 'extension'} title="납부 연장 신청" onClose={() => setDialog('none')}>
        {first ? (
          <div className={styles.modalBody}>
            <p>
              {monthLabel(first.month)} 이용분 <strong>{won(firstTotal)}</strong>의 납부일을{' '}
              <strong>
                {monthLabel(paymentMonth(first.month))} 15일에서 {monthLabel(paymentMonth(first.month))} 말일로
              </strong>{' '}
              연장해요.
            </p>
            <p className={styles.modalNote}>연장은 청구서마다 한 번만 할 수 있고, 이자나 연체료는 없어요.</p>
            <div className={styles.modalActions}>
              <button type="button" className={buttons.ghost} onClick={() => setDialog('none')}>
                취소
              </button>
              <button
                type="button"
                className={buttons.primary}
                onClick={submitExtension}
                disabled={extension.isPending}
              >
                {extension.isPending ? '신청 중...' : '연장 신청하기'}
              </button>
            </div>
          </div>
        ) : null}
      </Modal>

      <Modal open={dialog === 'repay'} title="즉시 납부" onClose={() => setDialog('none')}>
        <div className={styles.modalBody}>
          <ul className={styles.modalLines}>
            {lines.map((line) => (
              <li key={line.paymentId}>
                <span>{line.requestName}</span>
                <span>{won(line.price)}</span>
              </li>
            ))}
          </ul>
          <p className={styles.modalTotal}>
            <span>납부 금액</span>
            <strong>{won(total)}</strong>
          </p>
          <p className={styles.modalNote}>
            출금 계좌 {bankName(info.accountName)} {maskAccount(info.account)}
          </p>
          <div className={styles.modalActions}>
            <button type="button" className={buttons.ghost} onClick={() => setDialog('none')}>
              취소
            </button>
            <button type="button" className={buttons.primary} onClick={submitRepay} disabled={repay.isPending}>
              {repay.isPending ? '납부 중...' : `${won(total)} 납부하기`}
            </button>
          </div>
        </div>
      </Modal>

      <Modal open={dialog === 'done'} title="알림" variant="center" onClose={() => setDialog('none')}>
        <div className={styles.modalBody}>
          <p role="status">{doneMessage}</p>
          <div className={styles.modalActions}>
            <button type="button" className={buttons.primary} onClick={() => setDialog('none')}>
              확인
            </button>
          </div>
        </div>
      </Modal>
    </div>
  );
}
