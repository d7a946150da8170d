import { bankName } from '@ohgood/contract/bank';
import { kstDate } from '@ohgood/contract/kst';
import { BANKS, type Bank } from '@ohgood/contract/limits';
import { MSG } from '@ohgood/contract/messages';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../shared/api-client';
import { notify } from '../../../shared/notify';
import buttons from '../../../shared/ui/button.module.css';
import { useRegister } from '../api/auth-api';
import styles from './auth-form.module.css';
import { CHECKED_FIELDS, type CheckedField, type RegisterForm, validateRegisterForm } from './register-form';
import { TextField } from './text-field';

const EMPTY: RegisterForm = { name: '', emailId: '', pwd: '', birth: '', account: '', accountName: '국민' };
const NO_TOUCH: Record<CheckedField, boolean> = {
  name: false,
  emailId: false,
  pwd: false,
  birth: false,
  account: false,
};

const FIELD_IDS: Record<keyof RegisterForm, string> = {
  name: 'reg-name',
  emailId: 'reg-email',
  pwd: 'reg-pwd',
  birth: 'reg-birth',
  account: 'reg-account',
  accountName: 'reg-bank',
};

export default function RegisterPage() {
  const navigate = useNavigate();
  const [form, setForm] = useState<RegisterForm>(EMPTY);
  const [touched, setTouched] = useState(NO_TOUCH);
  const [submitting, setSubmitting] = useState(false);
  /** Refusals shown inline: the server's per field (a taken e-mail, a rule) and one for the whole form. */
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof RegisterForm, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const { mutateAsync: register } = useRegister();
  const today = kstDate(new Date());
  const valid = validateRegisterForm(form, today);

  const update = (field: keyof RegisterForm) => (event: { target: { value: string } }) => {
    setForm((prev) => ({ ...prev, [field]: event.target.value }));
    setFieldErrors((prev) => ({ ...prev, [field]: undefined }));
    if (field !== 'accountName') setTouched((prev) => ({ ...prev, [field]: true }));
  };
  const touch = (field: CheckedField) => () => setTouched((prev) => ({ ...prev, [field]: true }));
  // Email and password show red as soon as they hold something wrong; the others once touched.
  const invalid = (field: CheckedField) => (touched[field] && !valid[field]) || fieldErrors[field] !== undefined;
  /** The server's word for a field wins over the local hint. */
  const hintFor = (field: CheckedField, local: string) => fieldErrors[field] ?? local;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const firstInvalid = CHECKED_FIELDS.find((field) => !valid[field]);
    if (firstInvalid) {
      // Said beside the fields, not in a toast that would cover them; the first wrong field takes the focus.
      setTouched({ name: true, emailId: true, pwd: true, birth: true, account: true });
      setFormError(MSG.invalidInput);
      document.getElementById(FIELD_IDS[firstInvalid])?.focus();
      return;
    }
    setSubmitting(true);
    try {
      const emailId = form.emailId.trim();
      await register({ ...form, name: form.name.trim(), emailId });
      notify(MSG.registerSuccess);
      // The login form opens with the new e-mail filled in.
      navigate('/login', { state: { emailId } });
    } catch (error) {
      const field = error instanceof ApiError ? error.field : undefined;
      if (error instanceof ApiError && field && field in form) {
        setFieldErrors({ [field]: error.message });
        document.getElementById(FIELD_IDS[field as keyof RegisterForm])?.focus();
      } else if (error instanceof ApiError && error.status === 409)
        setFormError(`${MSG.registerFailed}: ${error.message}`);
      else if (error instanceof ApiError && error.status === 429) setFormError(error.message);
      else if (error instanceof ApiError && error.status > 0 && error.status < 500) setFormError(MSG.registerFailed);
      else setFormError(MSG.registerError);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className={styles.wrap}>
      <div className={styles.hero}>
        <h1>회원가입</h1>
        <p>납부할 계좌를 연결하고 바로 시작하세요.</p>
      </div>
      <form className={styles.form} onSubmit={submit} noValidate>
        <TextField
          id="reg-name"
          label="이름"
          autoComplete="name"
          maxLength={20}
          value={form.name}
          onChange={update('name')}
          onBlur={touch('name')}
          invalid={invalid('name')}
          errorHint={hintFor('name', '이름을 입력해주세요.')}
        />
        <TextField
          id="reg-email"
          label="이메일"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={form.emailId}
          onChange={update('emailId')}
          onBlur={touch('emailId')}
          invalid={invalid('emailId')}
          errorHint={hintFor('emailId', '이메일 형식을 확인해주세요.')}
        />
        <TextField
          id="reg-pwd"
          label="비밀번호"
          type="password"
          autoComplete="new-password"
          value={form.pwd}
          onChange={update('pwd')}
          onBlur={touch('pwd')}
          invalid={invalid('pwd')}
          hint="8~64자, 영문·숫자·!@#만 사용할 수 있어요."
          errorHint={hintFor('pwd', '8~64자, 영문·숫자·!@#만 사용할 수 있어요.')}
        />
        <TextField
          id="reg-birth"
          label="생년월일"
          type="date"
          max={today}
          value={form.birth}
          onChange={update('birth')}
          onBlur={touch('birth')}
          invalid={invalid('birth')}
          errorHint={hintFor('birth', '생년월일을 확인해주세요.')}
        />
        <div className={styles.field}>
          <label htmlFor="reg-bank">은행</label>
          <select id="reg-bank" className={styles.input} value={form.accountName} onChange={update('accountName')}>
            {BANKS.map((bank: Bank) => (
              <option key={bank} value={bank}>
                {bankName(bank)}
              </option>
            ))}
          </select>
        </div>
        <TextField
          id="reg-account"
          label="계좌번호"
          inputMode="numeric"
          autoComplete="off"
          placeholder="숫자만 ('-' 있어도 돼요)"
          value={form.account}
          onChange={update('account')}
          onBlur={touch('account')}
          invalid={invalid('account')}
          errorHint={hintFor('account', '계좌번호는 숫자 10~14자리예요.')}
        />
        {formError && (
          <p className={styles.error} role="alert">
            {formError}
          </p>
        )}
        <button type="submit" className={`${buttons.primary} ${buttons.block}`} disabled={submitting}>
          {submitting ? '가입 중...' : '회원가입'}
        </button>
      </form>
      <p className={styles.footer}>
        이미 계정이 있으신가요? <Link to="/login">로그인</Link>
      </p>
    </div>
  );
}
