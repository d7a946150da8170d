import { opsEndpoints as api } from '@ohgood/contract/ops';
import { useState } from 'react';
import { EnrolmentForm } from '../../../shared/ui/two-factor-forms';
import { useEnrolment } from '../api/queries';
import { callOps } from '../api/staff-api';
import { consoleLook, failure, Status } from '../components/console-ui';
import styles from '../components/ops-console.module.css';

/** `/ops/enrol/<token>`: the one-time link's page — scan the QR, set a password, confirm with a code. */
export function Enrol({ token }: { token: string }) {
  const info = useEnrolment(token);
  const [done, setDone] = useState(false);

  if (done) {
    return (
      <div className={`${styles.card} ${styles.signIn}`}>
        <h1>등록이 끝났어요</h1>
        <a href="/ops">운영 콘솔에 로그인하기</a>
      </div>
    );
  }
  return (
    <div className={`${styles.card} ${styles.signIn}`}>
      <h1>운영자 등록</h1>
      <Status read={info} />
      {info.data && (
        <EnrolmentForm
          look={{ ...consoleLook, form: styles.stack ?? '' }}
          who={`${info.data.name} (${info.data.email}, ${info.data.role})`}
          qrSvg={info.data.qrSvg}
          secret={info.data.secret}
          failure={failure}
          enrol={async (password, code) => {
            await callOps(api.enrol, { params: { token }, body: { password, code } });
            setDone(true);
          }}
        />
      )}
    </div>
  );
}
