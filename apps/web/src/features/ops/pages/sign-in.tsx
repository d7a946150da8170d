import type { StaffMe } from '@ohgood/contract/ops';
import { opsEndpoints as api } from '@ohgood/contract/ops';
import { TwoFactorSignIn } from '../../../shared/ui/two-factor-forms';
import { callOps, opsToken } from '../api/staff-api';
import { consoleLook, failure } from '../components/console-ui';

/** Step one, the password; step two, the authenticator's code (docs/rules/operations.md#O2). */
export function SignIn({ onSignedIn }: { onSignedIn: (me: StaffMe) => void }) {
  return (
    <TwoFactorSignIn
      title="오굿페이 운영 콘솔"
      look={consoleLook}
      failure={failure}
      password={async (email, password) => {
        opsToken.set((await callOps(api.signIn, { body: { email, password } })).token);
      }}
      code={async (code) => onSignedIn(await callOps(api.verifyTotp, { body: { code } }))}
    />
  );
}
