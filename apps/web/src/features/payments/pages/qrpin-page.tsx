import { LIMITS } from '@ohgood/contract/limits';
import type { ValidateResult } from '@ohgood/contract/payments';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Page } from '../../../shared/ui/page';
import { type CodeType, validateCode } from '../api/payments-api';
import { codeErrorMessage } from '../components/code-errors';
import { NumberPad } from '../components/number-pad';
import { PaymentModal } from '../components/payment-modal';
import { QrScannerView } from '../components/qr-scanner-view';
import styles from './qrpin-page.module.css';

type Mode = 'qr' | 'pin';

export default function QrPinPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const deepLinkCode = params.get('code');
  const [mode, setMode] = useState<Mode>('qr');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [request, setRequest] = useState<ValidateResult | null>(null);
  const busy = useRef(false);

  const validate = useCallback(async (codeType: CodeType, value: string) => {
    if (busy.current) return;
    busy.current = true;
    setChecking(true);
    setError(null);
    try {
      setRequest(await validateCode(codeType, value));
    } catch (failure) {
      setError(codeErrorMessage(failure));
      setPin('');
    } finally {
      busy.current = false;
      setChecking(false);
    }
  }, []);

  // A phone camera opening /qrpin?code=… validates at once (domain §4 deep link).
  useEffect(() => {
    if (!deepLinkCode) return;
    setParams({}, { replace: true });
    void validate('qrcode', deepLinkCode);
  }, [deepLinkCode, setParams, validate]);

  const typeDigit = useCallback(
    (digit: string) => {
      setPin((current) => {
        if (current.length >= LIMITS.pinLength) return current;
        const next = current + digit;
        // Validation runs by itself at six digits (spec §4).
        if (next.length === LIMITS.pinLength) void validate('pincode', next);
        return next;
      });
    },
    [validate],
  );

  useEffect(() => {
    if (mode !== 'pin' || request) return;
    const onKey = (event: KeyboardEvent) => {
      if (/^\d$/.test(event.key)) typeDigit(event.key);
      else if (event.key === 'Backspace') setPin((current) => current.slice(0, -1));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mode, request, typeDigit]);

  const closeModal = () => {
    setRequest(null);
    setPin('');
  };

  const paid = () => {
    setRequest(null);
    setPin('');
    void queryClient.invalidateQueries();
    navigate('/payment/details');
  };

  return (
    <Page title="QR·PIN 결제">
      <div className={styles.tabs} role="tablist" aria-label="결제 방식">
        <button type="button" role="tab" aria-selected={mode === 'qr'} onClick={() => setMode('qr')}>
          QR 스캔
        </button>
        <button type="button" role="tab" aria-selected={mode === 'pin'} onClick={() => setMode('pin')}>
          PIN 입력
        </button>
      </div>

      {mode === 'qr' ? (
        <div role="tabpanel" aria-label="QR 스캔">
          <QrScannerView paused={checking || request !== null} onScan={(value) => void validate('qrcode', value)} />
        </div>
      ) : (
        <div role="tabpanel" aria-label="PIN 입력" className={styles.pinPanel}>
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
        </div>
      )}

      <p className={styles.status} role={error ? 'alert' : 'status'}>
        {error ?? (checking ? '코드를 확인하는 중...' : '')}
      </p>

      <PaymentModal request={request} onClose={closeModal} onPaid={paid} />
    </Page>
  );
}
