import { LIMITS } from '@ohgood/contract/limits';
import { SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import { ImagePlus, Video } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../shared/api-client';
import { notify } from '../../../shared/notify';
import { FilePicker } from '../../../shared/ui/file-picker';
import { LimitedField } from '../../../shared/ui/limited-field';
import { useUpload } from '../api/upload-api';
import { advanced, UploadCard, type UploadPhase } from '../components/upload-card';
import { clearHandoff, handOff, readHandoff, takeHandoffFile } from '../file-handoff';
import styles from './upload-page.module.css';

const JPEG_QUALITY = 0.8;

/** The first frame of a video as a JPEG (quality 0.8), made in the browser (spec: default thumbnail). */
function captureFirstFrame(video: HTMLVideoElement): Promise<Blob | null> {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const context = canvas.getContext('2d');
  if (!context || canvas.width === 0) return Promise.resolve(null);
  context.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob), 'image/jpeg', JPEG_QUALITY));
}

export default function UploadPage() {
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [videoUrl, setVideoUrl] = useState<string | null>(null);
  const [thumbnail, setThumbnail] = useState<Blob | null>(null);
  const [thumbnailUrl, setThumbnailUrl] = useState<string | null>(null);
  const [customThumbnail, setCustomThumbnail] = useState(false);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [submitting, setSubmitting] = useState(false);
  /** The upload's own card: its bytes on the way, then the server's transcode. */
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  /** Why the server refuses this creator's uploads for now (an upload ban and the date it ends). */
  const [refused, setRefused] = useState<string | null>(null);
  /** The file and words of an upload sent before a new login came back with the customer. */
  const [restored, setRestored] = useState(false);
  const preview = useRef<HTMLVideoElement>(null);
  const alive = useRef(true);
  const { mutateAsync: upload } = useUpload();

  // biome-ignore lint/correctness/useExhaustiveDependencies: reads the handoff once on arrival
  useEffect(() => {
    alive.current = true;
    const info = readHandoff();
    if (info) {
      void takeHandoffFile(info).then((handed) => {
        if (!handed || !alive.current) return;
        choose(handed);
        if (info.draft) {
          setTitle(info.draft.title);
          setContent(info.draft.content);
          setRestored(true);
        }
      });
    }
    return () => {
      alive.current = false;
    };
  }, []);

  useEffect(
    () => () => {
      if (videoUrl) URL.revokeObjectURL(videoUrl);
    },
    [videoUrl],
  );
  useEffect(
    () => () => {
      if (thumbnailUrl) URL.revokeObjectURL(thumbnailUrl);
    },
    [thumbnailUrl],
  );

  function choose(next: File | undefined) {
    if (!next) return;
    if (!next.type.startsWith('video/')) {
      notify(SHORTS_MSG.videoOnly);
      return;
    }
    setFile(next);
    setVideoUrl(URL.createObjectURL(next));
    setCustomThumbnail(false);
    setThumbnail(null);
    setThumbnailUrl(null);
  }

  const onLoaded = async () => {
    const el = preview.current;
    if (!el || customThumbnail) return;
    const blob = await captureFirstFrame(el);
    if (blob && alive.current) {
      setThumbnail(blob);
      setThumbnailUrl(URL.createObjectURL(blob));
    }
  };

  const chooseThumbnail = (image: File | undefined) => {
    if (!image) return;
    if (!image.type.startsWith('image/')) {
      notify('이미지 파일만 선택 가능합니다.');
      return;
    }
    setCustomThumbnail(true);
    setThumbnail(image);
    setThumbnailUrl(URL.createObjectURL(image));
  };

  const reset = () => {
    setFile(null);
    setVideoUrl(null);
    setThumbnail(null);
    setThumbnailUrl(null);
    setTitle('');
    setContent('');
    setRestored(false);
    clearHandoff();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    if (!file || !title.trim() || !content.trim()) {
      notify(SHORTS_MSG.uploadFieldsRequired);
      return;
    }
    setSubmitting(true);
    // The card shows at once, at 0 % of about the file's size, before the browser's first progress event.
    setPhase({ step: 'sending', progress: { sent: 0, total: file.size } });
    try {
      const form = new FormData();
      form.append('title', title.trim());
      form.append('content', content.trim());
      if (thumbnail)
        form.append(
          'thumbnail',
          thumbnail,
          customThumbnail && thumbnail instanceof File ? thumbnail.name : 'thumbnail.jpg',
        );
      form.append('video', file, file.name || 'video.webm');
      // Kept until the upload lands: a refusal that sends the customer to log in again (an expired session)
      // brings them back here with the same file and words.
      handOff(file, { title, content });
      // The server transcodes in the background; the feed shows only playable videos, so wait for it.
      const uploaded = await upload({
        form,
        keepWaiting: () => alive.current,
        onSending: (progress) => {
          if (alive.current) setPhase((now) => advanced(now, progress));
        },
        onStored: () => {
          if (alive.current) setPhase({ step: 'processing' });
        },
      });
      reset();
      navigate(`/shorts/feeds?shortsId=${uploaded.shortsId}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        // The client already said the session ended and went to the login page; the draft waits here.
      } else if (error instanceof ApiError && error.code === 'UPLOAD_BANNED') {
        // The server's sentence names the date the ban ends; it stays on the page, not only in a toast.
        setRefused(error.message);
        notify(error.message);
      } else {
        notify(`${SHORTS_MSG.uploadError}: ${error instanceof Error ? error.message : String(error)}`);
      }
    } finally {
      if (alive.current) {
        setSubmitting(false);
        setPhase(null);
      }
    }
  };

  return (
    <section className={styles.page} aria-labelledby="upload-title">
      <h1 id="upload-title" className={styles.heading}>
        쇼츠 업로드
      </h1>
      {/* The chosen file plays at once; the feed opens at the short once the server has transcoded it. */}
      {phase && videoUrl && <UploadCard title={title.trim()} videoUrl={videoUrl} phase={phase} />}
      <form className={styles.form} onSubmit={submit}>
        <div className={styles.media}>
          <FilePicker className={styles.videoBox} accept="video/*" onPick={choose} label="동영상 파일">
            {videoUrl ? (
              <video
                ref={preview}
                src={videoUrl}
                className={styles.preview}
                muted
                playsInline
                controls
                preload="auto"
                onLoadedData={onLoaded}
                data-testid="upload-preview"
              />
            ) : (
              <span className={styles.pickHint}>
                <Video size={32} aria-hidden />
                동영상 선택
              </span>
            )}
          </FilePicker>
          <FilePicker
            className={styles.thumbBox}
            accept="image/jpeg,image/png,image/webp"
            onPick={chooseThumbnail}
            label="썸네일 이미지"
          >
            {thumbnailUrl ? (
              <>
                <img src={thumbnailUrl} alt="썸네일 미리보기" className={styles.thumb} />
                {/* Says where the picture comes from: the video's first frame until one is chosen. */}
                <span className={styles.thumbLabel} data-testid="thumbnail-source">
                  {customThumbnail ? '선택한 썸네일' : '자동 썸네일 (첫 장면)'}
                </span>
              </>
            ) : (
              <span className={styles.pickHint}>
                <ImagePlus size={24} aria-hidden />
                썸네일 (선택)
              </span>
            )}
          </FilePicker>
        </div>
        <LimitedField
          label="제목"
          value={title}
          onChange={setTitle}
          maxLength={LIMITS.shortsTitleMax}
          placeholder="제목을 입력해주세요"
          counted
        />
        <LimitedField
          label="내용"
          value={content}
          onChange={setContent}
          maxLength={LIMITS.shortsContentMax}
          rows={4}
          placeholder="영상에 대해 알려주세요 (#태그 가능)"
          counted
        />
        {restored && (
          <p className={styles.restored} role="status" data-testid="upload-restored">
            {SHORTS_MSG.uploadRestored}
          </p>
        )}
        {refused && (
          <p className={styles.refused} role="alert" data-testid="upload-refused">
            {refused}
          </p>
        )}
        <button type="submit" className={styles.submit} disabled={submitting}>
          {submitting ? SHORTS_MSG.uploading : '업로드'}
        </button>
      </form>
    </section>
  );
}
