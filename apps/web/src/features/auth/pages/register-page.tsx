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

export default function RegisterPage() {
  const navigate = useNavigate();
  const [form, setForm] = useState<RegisterForm>(EMPTY);
  const [touched, setTouched] = useState(NO_TOUCH);
  const [submitting, setSubmitting] = useState(false);
  const { mutateAsync: register } = useRegister();
  const today = kstDate(new Date());
  const valid = validateRegisterForm(form, today);

  const update = (field: keyof RegisterForm) => (event: { target: { value: string } }) => {
    setForm((prev) => ({ ...prev, [field]: event.target.value }));
    if (field !== 'accountName') setTouched((prev) => ({ ...prev, [field]: true }));
  };
  const touch = (field: CheckedField) => () => setTouched((prev) => ({ ...prev, [field]: true }));
  // Email and password show red as soon as they hold something wrong; the others once touched.
  const invalid = (field: CheckedField) => touched[field] && !valid[field];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!CHECKED_FIELDS.every((field) => valid[field])) {
      setTouched({ name: true, emailId: true, pwd: true, birth: true, account: true });
      notify(MSG.invalidInput);
      return;
    }
    setSubmitting(true);
    try {
      await register({ ...form, name: form.name.trim(), emailId: form.emailId.trim() });
      notify(MSG.registerSuccess);
      navigate('/login');
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) notify(`${MSG.registerFailed}: ${error.message}`);
      else if (error instanceof ApiError && error.status > 0 && error.status < 500) notify(MSG.registerFailed);
      else notify(MSG.registerError);
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
          errorHint="이름을 입력해주세요."
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
          errorHint="이메일 형식을 확인해주세요."
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
          errorHint="8~64자, 영문·숫자·!@#만 사용할 수 있어요."
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
          errorHint="생년월일을 확인해주세요."
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
          placeholder="'-' 없이 숫자만"
          value={form.account}
          onChange={update('account')}
          onBlur={touch('account')}
          invalid={invalid('account')}
          errorHint="계좌번호는 숫자 10~14자리예요."
        />
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
