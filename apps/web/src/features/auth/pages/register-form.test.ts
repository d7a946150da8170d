import { describe, expect, it } from 'vitest';
import { type RegisterForm, validateRegisterForm } from './register-form';

const ok: RegisterForm = {
  name: '홍길동',
  emailId: 'hong@example.com',
  pwd: 'abc123!@#',
  birth: '1990-02-28',
  account: '1234567890',
  accountName: '국민',
};
const today = '2026-11-22';

describe('register form validation', () => {
  it('accepts a complete form', () => {
    expect(Object.values(validateRegisterForm(ok, today)).every(Boolean)).toBe(true);
  });
  it('accepts an account number typed with hyphens or spaces (the server stores digits)', () => {
    expect(validateRegisterForm({ ...ok, account: '123-456-7890' }, today).account).toBe(true);
    expect(validateRegisterForm({ ...ok, account: '123 456 7890' }, today).account).toBe(true);
  });
  it.each([
    ['emailId', { emailId: 'hong@example' }],
    ['pwd', { pwd: 'abc123$%' }],
    ['pwd', { pwd: 'short1' }],
    ['birth', { birth: '2027-01-01' }],
    ['birth', { birth: '1990-02-30' }],
    ['account', { account: '123-456' }],
    ['account', { account: '123-456-78a0' }],
    ['name', { name: '   ' }],
  ] as const)('flags %s for %o', (field, patch) => {
    expect(validateRegisterForm({ ...ok, ...patch }, today)[field]).toBe(false);
  });
});
