import { isValidAccount, isValidBirth, isValidEmail, isValidPassword } from '@ohgood/contract/auth-rules';
import { type Bank, LIMITS } from '@ohgood/contract/limits';

export interface RegisterForm {
  name: string;
  emailId: string;
  pwd: string;
  birth: string;
  account: string;
  accountName: Bank;
}

export type CheckedField = 'name' | 'emailId' | 'pwd' | 'birth' | 'account';
export const CHECKED_FIELDS: readonly CheckedField[] = ['name', 'emailId', 'pwd', 'birth', 'account'];

/**
 * Per-field validity of the five checked fields (docs/rules/money-and-time.md#T4; the sign-up button needs all five).
 */
export function validateRegisterForm(form: RegisterForm, today: string): Record<CheckedField, boolean> {
  const name = form.name.trim();
  return {
    name: name.length >= 1 && name.length <= LIMITS.nameMax,
    emailId: isValidEmail(form.emailId.trim()),
    pwd: isValidPassword(form.pwd),
    birth: isValidBirth(form.birth, today),
    account: isValidAccount(form.account),
  };
}
