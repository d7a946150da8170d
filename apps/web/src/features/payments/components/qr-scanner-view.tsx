import { PAY_MSG } from '@ohgood/contract/messages';
import { useEffect, useRef, useState } from 'react';
import styles from './qr-scanner-view.module.css';

interface QrScannerViewProps {
  /** Called once per distinct decoded value (spec §4: only a new value is processed). */
  onScan: (value: string) => void;
  paused: boolean;
}

/** The rear camera with qr-scanner (its worker is bundled by Vite; nothing is fetched from a CDN). */
export function QrScannerView({ onScan, paused }: QrScannerViewProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const lastValue = useRef<string | null>(null);
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
    import('qr-scanner')
      .then(async ({ default: QrScanner }) => {
        if (cancelled) return;
        const instance = new QrScanner(
          video,
          (result) => {
            if (pausedRef.current || result.data === lastValue.current) return;
            lastValue.current = result.data;
            onScanRef.current(result.data);
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

  /** After a failed validation the same code may be shown again on purpose: accept it once more. */
  useEffect(() => {
    if (!paused) lastValue.current = null;
  }, [paused]);

  return (
    <div className={styles.frame}>
      <video ref={videoRef} className={styles.video} muted playsInline aria-label="QR 코드 스캔 화면" />
      <div className={styles.target} aria-hidden />
      {failed ? (
        <p className={styles.message} role="alert">
          {PAY_MSG.cameraDenied}
        </p>
      ) : (
        <p className={styles.hint}>QR 코드를 사각형 안에 맞춰주세요</p>
      )}
    </div>
  );
}
