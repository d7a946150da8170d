import { PAY_MSG } from '@ohgood/contract/messages';
import { useEffect, useRef, useState } from 'react';
import buttons from '../../../shared/ui/button.module.css';
import styles from './qr-scanner-view.module.css';

interface QrScannerViewProps {
  /** Every decoded value while not paused; the page decides which ones are new (once per visit). */
  onScan: (value: string) => void;
  paused: boolean;
  /** Camera denied or missing: the PIN tab is the way on. */
  onUsePin: () => void;
}

/** The rear camera with qr-scanner (its worker is bundled by Vite; nothing is fetched from a CDN). */
export function QrScannerView({ onScan, paused, onUsePin }: QrScannerViewProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const onScanRef = useRef(onScan);
  onScanRef.current = onScan;
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let scanner: { start(): Promise<void>; stop(): void; destroy(): void } | null = null;
    let cancelled = false;
    let decoded = 0;
    import('qr-scanner')
      .then(async ({ default: QrScanner }) => {
        if (cancelled) return;
        const instance = new QrScanner(
          video,
          (result) => {
            // A count of decoded frames on the element: tests wait on it instead of on time.
            decoded += 1;
            frameRef.current?.setAttribute('data-decoded', String(decoded));
            if (!pausedRef.current) onScanRef.current(result.data);
          },
          {
            preferredCamera: 'environment',
            maxScansPerSecond: 25,
            returnDetailedScanResult: true,
            calculateScanRegion: (v) => {
              const size = Math.round(Math.min(v.videoWidth, v.videoHeight) * 0.8);
              return {
                x: Math.round((v.videoWidth - size) / 2),
                y: Math.round((v.videoHeight - size) / 2),
                width: size,
                height: size,
                downScaledWidth: 400,
                downScaledHeight: 400,
              };
            },
          },
        );
        scanner = instance;
        await instance.start();
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      scanner?.stop();
      scanner?.destroy();
    };
  }, []);

  return (
    <div ref={frameRef} className={styles.frame} data-testid="qr-frame">
      <video ref={videoRef} className={styles.video} muted playsInline aria-label="QR 코드 스캔 화면" />
      <div className={styles.target} aria-hidden />
      {failed ? (
        <div className={styles.message} role="alert">
          <p>{PAY_MSG.cameraDenied}</p>
          <p className={styles.messageSub}>카메라 없이도 매장의 6자리 코드로 결제할 수 있어요.</p>
          <button type="button" className={buttons.primary} onClick={onUsePin}>
            PIN으로 결제하기
          </button>
        </div>
      ) : (
        <p className={styles.hint}>QR 코드를 사각형 안에 맞춰주세요</p>
      )}
    </div>
  );
}
