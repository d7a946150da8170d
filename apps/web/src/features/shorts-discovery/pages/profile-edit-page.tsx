import { LIMITS } from '@ohgood/contract/limits';
import type { Profile } from '@ohgood/contract/shorts-discovery';
import { DISCOVERY_LIMITS, DISCOVERY_MSG } from '@ohgood/contract/shorts-discovery-rules';
import { Camera } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../shared/api-client';
import { notify } from '../../../shared/notify';
import buttons from '../../../shared/ui/button.module.css';
import { FilePicker } from '../../../shared/ui/file-picker';
import { LimitedField } from '../../../shared/ui/limited-field';
import { LoadingText, Page } from '../../../shared/ui/page';
import { useEditProfile, useOwnProfile } from '../api/discovery-api';
import { Avatar } from '../components/avatar';
import styles from '../components/discovery.module.css';
import { RetryError } from '../components/retry-error';

/** The texts for a failed save, by cause: server status, network, anything else. */
export function editErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return DISCOVERY_MSG.editNetworkError;
    if (error.status >= 400) return DISCOVERY_MSG.editServerError(error.status);
  }
  return DISCOVERY_MSG.editOtherError;
}

/** /shorts/profile/edit: receives the profile in navigation state; loads it when opened directly. */
export default function ProfileEditPage() {
  const location = useLocation();
  const given = (location.state as { profile?: Profile } | null)?.profile ?? null;
  const own = useOwnProfile(given === null);
  const profile = given ?? own.data ?? null;
  if (!profile) {
    if (own.isError) return <RetryError error={own.error} onRetry={() => void own.refetch()} />;
    return <LoadingText />;
  }
  return <EditForm profile={profile} />;
}

function EditForm({ profile }: { profile: Profile }) {
  const navigate = useNavigate();
  const { mutateAsync: saveProfile } = useEditProfile();
  const [nickname, setNickname] = useState(profile.customerNickname);
  const [introduce, setIntroduce] = useState(profile.introduce);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const pick = (picked: File | undefined) => {
    if (!picked) return;
    if (!picked.type.startsWith('image/')) {
      notify(DISCOVERY_MSG.imageOnly);
      return;
    }
    if (picked.size > DISCOVERY_LIMITS.profileImageMaxBytes) {
      notify(DISCOVERY_MSG.imageTooLarge);
      return;
    }
    setFile(picked);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (!nickname.trim()) {
      notify(DISCOVERY_MSG.nicknameRequired);
      return;
    }
    const form = new FormData();
    form.append('nickname', nickname.trim());
    form.append('introduce', introduce.trim());
    if (file) form.append('profileImg', file);
    setSaving(true);
    try {
      await saveProfile(form);
      notify(DISCOVERY_MSG.editSuccess);
      navigate('/shorts/profile', { replace: true });
    } catch (error) {
      notify(editErrorText(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Page title={DISCOVERY_MSG.editProfile}>
      <form className={styles.editForm} onSubmit={(e) => void submit(e)} noValidate>
        <FilePicker className={styles.photoPick} accept="image/*" onPick={pick} testId="profile-photo">
          {preview ? (
            <img src={preview} alt="" width={96} height={96} className={styles.avatar} />
          ) : (
            <Avatar base={profile.mediaBaseUrl} path={profile.profileImg} size={96} />
          )}
          <span className={styles.photoBadge}>
            <Camera size={16} aria-hidden /> 사진 선택
          </span>
        </FilePicker>
        <LimitedField label="이름" value={nickname} onChange={setNickname} maxLength={LIMITS.nicknameMax} counted />
        <LimitedField
          label="소개"
          value={introduce}
          onChange={setIntroduce}
          maxLength={LIMITS.introduceMax}
          rows={4}
          counted
        />
        <button type="submit" className={buttons.primary} disabled={saving}>
          {saving ? DISCOVERY_MSG.saving : DISCOVERY_MSG.confirm}
        </button>
      </form>
    </Page>
  );
}
