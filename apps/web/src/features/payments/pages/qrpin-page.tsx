import { LIMITS } from '@ohgood/contract/limits';
import type { FinalResult, ValidateResult } from '@ohgood/contract/payments';
import { qrTokenFrom } from '@ohgood/contract/qr';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import buttons from '../../../shared/ui/button.module.css';
import { Page } from '../../../shared/ui/page';
import { Tabs } from '../../../shared/ui/tabs';
import { offerPushAfterPayment } from '../../../shared/web-push';
import { type CodeType, useValidateCode } from '../api/payments-api';
import { codeErrorMessage } from '../components/code-errors';
import { NumberPad } from '../components/number-pad';
import { PaymentModal } from '../components/payment-modal';
import { QrScannerView } from '../components/qr-scanner-view';
import { Receipt } from '../components/receipt';
import styles from './qrpin-page.module.css';

type Mode = 'qr' | 'pin';

const TABS = [
  { key: 'qr' as const, label: 'QR 스캔' },
  { key: 'pin' as const, label: 'PIN 입력' },
];

export default function QrPinPage() {
  const navigate = useNavigate();
  const { mutateAsync: validateCode } = useValidateCode();
  const [params, setParams] = useSearchParams();
  const deepLinkCode = params.get('code');
  const [mode, setMode] = useState<Mode>('qr');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [request, setRequest] = useState<ValidateResult | null>(null);
  const [paid, setPaid] = useState<{ request: ValidateResult; result: FinalResult } | null>(null);
  const busy = useRef(false);
  /*
   * QR codes handled during this visit: each is sent to the server once, whatever happened, so a
   * code left in view neither reopens a closed modal nor piles up failed attempts. 'QR 다시 스캔' forgets them.
   */
  const handled = useRef(new Set<string>());
  const [canRescan, setCanRescan] = useState(false);

  const validate = useCallback(
    async (codeType: CodeType, value: string) => {
      if (busy.current) return;
      busy.current = true;
      setChecking(true);
      setError(null);
      try {
        setRequest(await validateCode({ codeType, value }));
      } catch (failure) {
        setError(codeErrorMessage(failure));
        setPin('');
        if (codeType === 'qrcode') setCanRescan(true);
      } finally {
        busy.current = false;
        setChecking(false);
      }
    },
    [validateCode],
  );

  const scanned = useCallback(
    (value: string) => {
      const token = qrTokenFrom(value);
      if (busy.current || handled.current.has(token)) return;
      handled.current.add(token);
      void validate('qrcode', value);
    },
    [validate],
  );

  // A phone camera opening /qrpin?code=… validates at once (docs/rules/payments.md#P3 deep link).
  useEffect(() => {
    if (!deepLinkCode) return;
    setParams({}, { replace: true });
    scanned(deepLinkCode);
  }, [deepLinkCode, setParams, scanned]);

  const typeDigit = useCallback(
    (digit: string) => {
      setPin((current) => {
        if (current.length >= LIMITS.pinLength) return current;
        const next = current + digit;
        // Validation runs by itself at six digits.
        if (next.length === LIMITS.pinLength) void validate('pincode', next);
        return next;
      });
    },
    [validate],
  );

  useEffect(() => {
    if (mode !== 'pin' || request || paid) return;
    const onKey = (event: KeyboardEvent) => {
      // Digits go to the PIN wherever the focus is (the PIN tab itself, just chosen, included), except in a
      // field of their own.
      if (event.target instanceof HTMLElement && event.target.closest('input, textarea, [contenteditable="true"]')) {
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (/^\d$/.test(event.key)) typeDigit(event.key);
      else if (event.key === 'Backspace') setPin((current) => current.slice(0, -1));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mode, request, paid, typeDigit]);

  const closeModal = () => {
    setRequest(null);
    setPin('');
    if (mode === 'qr') setCanRescan(true);
  };

  const rescan = () => {
    handled.current.clear();
    setCanRescan(false);
    setError(null);
  };

  const onPaid = (result: FinalResult) => {
    if (request) setPaid({ request, result });
    setRequest(null);
    setPin('');
  };

  if (paid) {
    return (
      <Page title="결제 완료">
        <Receipt
          request={paid.request}
          result={paid.result}
          onDone={() => {
            navigate('/payment/details', { state: { highlight: paid.result.paymentId } });
            // A moment that makes sense to offer payment alerts: right after a payment, once per browser.
            void offerPushAfterPayment();
          }}
        />
      </Page>
    );
  }

  return (
    <Page title="QR·PIN 결제">
      <Tabs
        label="결제 방식"
        items={TABS}
        selected={mode}
        onSelect={setMode}
        className={styles.tabs}
        panelClassName={mode === 'pin' ? styles.pinPanel : undefined}
      >
        {mode === 'qr' ? (
          <>
            <QrScannerView paused={checking || request !== null} onScan={scanned} onUsePin={() => setMode('pin')} />
            {canRescan && !checking && request === null ? (
              <button
                type="button"
                className={`${buttons.secondary} ${buttons.block} ${styles.rescan}`}
                onClick={rescan}
              >
                QR 다시 스캔
              </button>
            ) : null}
          </>
        ) : (
          <>
            <p className={styles.pinHint}>매장에 표시된 6자리 코드를 입력하세요</p>
            <div className={styles.dots} role="img" aria-label={`${pin.length}자리 입력됨`} data-testid="pin-dots">
              {Array.from({ length: LIMITS.pinLength }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: fixed six slots
                <span key={index} className={index < pin.length ? styles.filled : ''}>
                  {pin[index] ?? ''}
                </span>
              ))}
            </div>
            <NumberPad
              label="PIN 입력"
              onDigit={typeDigit}
              onDelete={() => setPin((current) => current.slice(0, -1))}
              onClear={() => setPin('')}
              disabled={checking}
            />
          </>
        )}
      </Tabs>

      <p className={styles.status} role={error ? 'alert' : 'status'}>
        {error ?? (checking ? '코드를 확인하는 중...' : '')}
      </p>

      <PaymentModal request={request} onClose={closeModal} onPaid={onPaid} />
    </Page>
  );
}
