import { describe, expect, it } from 'vitest';
import { loginPath, safeNext } from './return-to';

describe('return after login', () => {
  it('keeps path and query of a guarded page', () => {
    expect(loginPath('/qrpin?code=abc&x=1')).toBe('/login?next=%2Fqrpin%3Fcode%3Dabc%26x%3D1');
    expect(safeNext('/qrpin?code=abc&x=1')).toBe('/qrpin?code=abc&x=1');
  });

  it('never leaves the app or loops back to login', () => {
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '/login']) {
      expect(safeNext(bad)).toBe('/');
    }
    expect(safeNext(null)).toBe('/');
    expect(loginPath('/')).toBe('/login');
  });
});
