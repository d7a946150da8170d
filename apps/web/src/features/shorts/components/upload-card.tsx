import { SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import type { UploadProgress } from '../../../shared/upload-request';
import styles from './upload-card.module.css';

/** Where an upload is: its bytes on the way (how many so far), then the server's transcode. */
export type UploadPhase = { step: 'sending'; progress: UploadProgress } | { step: 'processing' };

/** The whole percent of the body sent (100 only once all of it has gone); null when its size is unknown. */
export function sentPercent({ sent, total }: UploadProgress): number | null {
  if (total === null || total <= 0) return null;
  return Math.min(100, Math.floor((sent * 100) / total));
}

/**
 * The phase after `progress`, or `phase` itself while the whole percent stands: the card changes (and the
 * page renders) about a hundred times per upload, not at each of the browser's progress events.
 */
export function advanced(phase: UploadPhase | null, progress: UploadProgress): UploadPhase | null {
  if (phase?.step !== 'sending') return phase;
  return sentPercent(phase.progress) === sentPercent(progress) ? phase : { step: 'sending', progress };
}

/** What a screen reader hears, politely: the start, each quarter of the bytes, then the transcode. */
function announcement(phase: UploadPhase): string {
  if (phase.step === 'processing') return SHORTS_MSG.uploadProcessing;
  const percent = sentPercent(phase.progress);
  const quarter = percent === null ? 0 : Math.floor(percent / 25) * 25;
  return quarter === 0 ? SHORTS_MSG.uploadSending : SHORTS_MSG.uploadPercent(quarter);
}

/**
 * The upload's own card, shown the moment it is sent: the chosen file playing, the percent of its bytes sent
 * (a bar of the bytes), then the transcode (an indeterminate bar: the server does not say how far it is).
 */
export function UploadCard({ title, videoUrl, phase }: { title: string; videoUrl: string; phase: UploadPhase }) {
  const { sent, total } = phase.step === 'sending' ? phase.progress : { sent: 0, total: null };
  const percent = sentPercent({ sent, total });
  const shown =
    phase.step === 'processing'
      ? SHORTS_MSG.uploadProcessing
      : percent === null
        ? SHORTS_MSG.uploadSending
        : SHORTS_MSG.uploadPercent(percent);
  return (
    <article className={styles.card} aria-label={`내 업로드: ${title}`} data-testid="upload-card">
      <video src={videoUrl} className={styles.video} muted autoPlay loop playsInline />
      <div className={styles.text}>
        <strong>{title}</strong>
        {/* Read from the bar below; the live line says it in quarters, not at every percent. */}
        <p className={styles.state} aria-hidden="true" data-testid="upload-card-state">
          {shown}
        </p>
        {/* Bytes of a known size, else indeterminate (no value). */}
        <progress
          aria-label="업로드 진행"
          aria-valuetext={shown}
          {...(total !== null && percent !== null ? { value: sent, max: total } : {})}
        />
        <p role="status" className="visually-hidden">
          {announcement(phase)}
        </p>
      </div>
    </article>
  );
}
