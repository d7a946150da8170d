import { describe, expect, it } from 'vitest';
import { redactUrl } from '../http/logging';
import { loadConfig } from './config';

describe('configuration', () => {
  it('applies defaults and treats empty variables as unset', () => {
    const config = loadConfig({ DATABASE_URL: '', PORT: '4000' });
    expect(config.PORT).toBe(4000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATA_DIR).toBe('./data');
    expect(config.PAYMENT_REQUEST_TTL_SECONDS).toBe(120);
    // Safe behind a health-checking balancer unless set otherwise.
    expect(config.SHUTDOWN_DRAIN_SECONDS).toBe(5);
  });

  it('refuses URLs that only look like URLs, naming the variable and the expected form', () => {
    for (const bad of ['localhost:5432/ohgood', 'http://db:5432/ohgood', 'postgres://db:5432', 'postgres:///']) {
      expect(() => loadConfig({ DATABASE_URL: bad }), bad).toThrowError(
        /DATABASE_URL: must (be a full URL|name the database)/,
      );
    }
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db.internal:5432/ohgood' }).DATABASE_URL).toContain(
      'db.internal',
    );
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://u@localhost/ohgood?host=/var/run/postgresql' }).DATABASE_URL,
    ).toBeDefined();
    expect(() => loadConfig({ S3_ENDPOINT: 'minio:9000' })).toThrowError(/S3_ENDPOINT: must be a full URL/);
    expect(() => loadConfig({ PUBLIC_URL: 'pay.example.com' })).toThrowError(/PUBLIC_URL: must be a full URL/);
  });

  it('fails fast with a readable list of every bad variable', () => {
    expect(() => loadConfig({ PORT: 'abc', JWT_SECRET: 'short', DATABASE_URL: 'not a url' })).toThrowError(
      /Invalid configuration:\n {2}- PORT: .*\n {2}- DATABASE_URL: .*\n {2}- JWT_SECRET: JWT_SECRET must be at least 32 characters/,
    );
  });
});

describe('log redaction', () => {
  it('hides QR tokens and codes in logged URLs', () => {
    expect(redactUrl('/qrpin?code=abcDEF123&x=1')).toBe('/qrpin?code=[REDACTED]&x=1');
    expect(redactUrl('/api/thing?value=123456')).toBe('/api/thing?value=[REDACTED]');
    expect(redactUrl('/api/payment/final?point=0&requestId=r1')).toBe('/api/payment/final?point=0&requestId=r1');
  });
});
