import { portalEndpoints as api } from '@ohgood/contract/merchant-portal';
import { useState } from 'react';
import { Link } from 'react-router';
import { EnrolmentForm } from '../../../shared/ui/two-factor-forms';
import { callPortal } from '../api/portal-api';
import { useEnrolment } from '../api/queries';
import styles from '../components/portal.module.css';
import { failure, portalLook, ReadState } from '../components/portal-ui';

/** `/merchant/portal/enrol/<token>`: the one-time link — scan the QR, set a password, confirm with a code. */
export function Enrol({ token }: { token: string }) {
  const info = useEnrolment(token);
  const [done, setDone] = useState(false);

  if (done) {
    return (
      <main className={`${styles.card} ${styles.signIn}`}>
        <h1 className={styles.brand}>등록이 끝났어요</h1>
        <Link to="/merchant/portal">가맹점 포털에 로그인하기</Link>
      </main>
    );
  }
  return (
    <main className={`${styles.card} ${styles.signIn}`}>
      <h1 className={styles.brand}>가맹점 사용자 등록</h1>
      <ReadState read={info} isEmpty={false} empty="">
        {info.data && (
          <EnrolmentForm
            look={portalLook}
            who={`${info.data.merchantName} · ${info.data.name} (${info.data.email})`}
            qrSvg={info.data.qrSvg}
            secret={info.data.secret}
            failure={failure}
            enrol={async (password, code) => {
              await callPortal(api.enrol, { params: { token }, body: { password, code } });
              setDone(true);
            }}
          />
        )}
      </ReadState>
    </main>
  );
}
