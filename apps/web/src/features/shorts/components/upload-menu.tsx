import { SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import { Camera, Image, Plus } from 'lucide-react';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { notify } from '../../../shared/notify';
import { handOff } from '../file-handoff';
import styles from './feed.module.css';

/** Upload menu: camera recording or a video from the gallery. */
export function UploadMenu({ gate }: { gate(): boolean }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const picker = useRef<HTMLInputElement>(null);

  const pick = (file: File | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('video/')) {
      notify(SHORTS_MSG.videoOnly);
      return;
    }
    handOff(file);
    navigate('/shorts/upload');
  };

  return (
    <div className={styles.uploadMenu}>
      <button
        type="button"
        className={styles.action}
        aria-label="업로드"
        aria-expanded={open}
        onClick={() => {
          if (gate()) setOpen((o) => !o);
        }}
      >
        <span className={styles.actionIcon}>
          <Plus size={26} aria-hidden />
        </span>
      </button>
      {open && (
        <div className={styles.menu} role="menu">
          <button
            type="button"
            role="menuitem"
            className={styles.menuItem}
            onClick={() => navigate('/shorts/feeds/test')}
          >
            <Camera size={18} aria-hidden /> 카메라
          </button>
          <button type="button" role="menuitem" className={styles.menuItem} onClick={() => picker.current?.click()}>
            <Image size={18} aria-hidden /> 갤러리
          </button>
        </div>
      )}
      <input
        ref={picker}
        type="file"
        accept="video/*"
        hidden
        data-testid="gallery-input"
        onChange={(e) => {
          pick(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </div>
  );
}
