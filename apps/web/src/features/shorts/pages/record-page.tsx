import { SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import { Camera, Circle, Send, Square } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { notify } from '../../../shared/notify';
import { pickRecorderType } from '../feed-logic';
import { handOff } from '../file-handoff';
import styles from './record-page.module.css';

const TIMESLICE_MS = 1000;

/** Camera recording test page: camera on, record, stop, send to /shorts/upload. */
export default function RecordPage() {
  const navigate = useNavigate();
  const live = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);
  const [cameraOn, setCameraOn] = useState(false);
  const [recording, setRecording] = useState(false);
  const [recorded, setRecorded] = useState<Blob | null>(null);
  const [recordedUrl, setRecordedUrl] = useState<string | null>(null);

  useEffect(
    () => () => {
      if (recorder.current?.state === 'recording') recorder.current.stop();
      for (const track of stream.current?.getTracks() ?? []) track.stop();
    },
    [],
  );
  useEffect(
    () => () => {
      if (recordedUrl) URL.revokeObjectURL(recordedUrl);
    },
    [recordedUrl],
  );

  const startCamera = async () => {
    try {
      const media = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'user', width: { ideal: 720 }, height: { ideal: 1280 } },
        audio: true,
      });
      stream.current = media;
      if (live.current) {
        live.current.srcObject = media;
        await live.current.play().catch(() => undefined);
      }
      setCameraOn(true);
    } catch {
      notify(SHORTS_MSG.cameraPermission);
    }
  };

  const startRecording = () => {
    if (!stream.current) {
      notify(SHORTS_MSG.cameraPermission);
      return;
    }
    const mimeType = pickRecorderType((type) => MediaRecorder.isTypeSupported(type));
    chunks.current = [];
    const next = new MediaRecorder(stream.current, mimeType ? { mimeType } : undefined);
    next.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.current.push(event.data);
    };
    next.onstop = () => {
      const blob = new Blob(chunks.current, { type: next.mimeType || mimeType || 'video/webm' });
      setRecorded(blob.size > 0 ? blob : null);
      setRecordedUrl(blob.size > 0 ? URL.createObjectURL(blob) : null);
    };
    next.start(TIMESLICE_MS);
    recorder.current = next;
    setRecorded(null);
    setRecording(true);
  };

  const stopRecording = () => {
    if (recorder.current?.state === 'recording') recorder.current.stop();
    setRecording(false);
  };

  const send = () => {
    if (!recorded) {
      notify(SHORTS_MSG.noRecording);
      return;
    }
    try {
      const type = recorded.type.split(';')[0] || 'video/webm';
      const extension = type.includes('mp4') ? 'mp4' : 'webm';
      handOff(new File([recorded], `recording-${Date.now()}.${extension}`, { type, lastModified: Date.now() }));
      navigate('/shorts/upload');
    } catch {
      notify(SHORTS_MSG.recordingError);
    }
  };

  return (
    <section className={styles.page} aria-labelledby="record-title">
      <h1 id="record-title" className={styles.heading}>
        카메라 녹화 테스트
      </h1>
      <div className={styles.stage}>
        <video ref={live} className={styles.live} muted playsInline hidden={Boolean(recordedUrl) && !recording} />
        {recordedUrl && !recording && (
          <video src={recordedUrl} className={styles.live} controls playsInline data-testid="recorded-preview">
            <track kind="captions" />
          </video>
        )}
        {!cameraOn && !recordedUrl && <p className={styles.hint}>카메라를 켜주세요</p>}
        <span className={recording ? styles.rec : styles.stopped} data-testid="rec-indicator">
          {recording ? 'REC' : 'STOPPED'}
        </span>
      </div>
      <div className={styles.buttons}>
        <button type="button" onClick={startCamera} disabled={cameraOn}>
          <Camera size={18} aria-hidden /> 카메라 켜기
        </button>
        <button type="button" onClick={startRecording} disabled={!cameraOn || recording}>
          <Circle size={18} aria-hidden /> 녹화 시작
        </button>
        <button type="button" onClick={stopRecording} disabled={!recording}>
          <Square size={18} aria-hidden /> 녹화 중지
        </button>
        <button type="button" onClick={send} disabled={recording}>
          <Send size={18} aria-hidden /> 녹화 영상 보내기
        </button>
      </div>
    </section>
  );
}
