import { portalEndpoints as api, type PortalMe } from '@ohgood/contract/merchant-portal';
import { TwoFactorSignIn } from '../../../shared/ui/two-factor-forms';
import { callPortal, portalToken } from '../api/portal-api';
import styles from '../components/portal.module.css';
import { failure, portalLook } from '../components/portal-ui';

/** Step one, the password; step two, the authenticator's code (docs/rules/merchant-portal.md#M2). */
export function SignIn({ onSignedIn }: { onSignedIn: (me: PortalMe) => void }) {
  return (
    <main>
      <TwoFactorSignIn
        title="오굿페이 가맹점 포털"
        look={{ ...portalLook, form: `${styles.card} ${styles.signIn} ${styles.form}` }}
        failure={failure}
        password={async (email, password) => {
          portalToken.set((await callPortal(api.signIn, { body: { email, password } })).token);
        }}
        code={async (code) => onSignedIn(await callPortal(api.verifyTotp, { body: { code } }))}
      />
    </main>
  );
}
