import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../test/harness';
import { createMerchant } from '../test/merchant-fixture';
import { asOwner } from '../test/test-database';

const lines: string[] = [];
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { LOG_LEVEL: 'info' }, logStream: { write: (line) => lines.push(line) } });
});
afterAll(() => h.close());

it('a database error is logged with its code and constraint but none of the query parameters or the row', async () => {
  // Make the next writes fail inside PostgreSQL, after the values have been bound to the query.
  // As the owner: the app's own role may not change the schema.
  await asOwner(h.database, [
    'alter table customers add constraint test_fail_register check (length(account) < 5) not valid',
    'alter table payment_requests add constraint test_fail_request check (total_price < 0) not valid',
  ]);
  const secrets = {
    name: '비밀이름홍길동',
    emailId: 'secret.person@example.com',
    pwd: 'TopSecret99!',
    birth: '1991-07-08',
    account: '98765432109876',
    accountName: '국민',
  };
  const register = await h.app.inject({ method: 'POST', url: '/api/public/register', payload: secrets });
  expect(register.statusCode).toBe(500);
  expect(register.body).not.toContain('98765432109876');

  const merchant = await createMerchant(h.database.db);
  const order = { orderId: 'secret-order-77331', requestName: '비밀상품명', totalPrice: 4_321 };
  const create = await h.app.inject({
    method: 'POST',
    url: '/api/merchant/payment-requests',
    headers: merchant.headers,
    payload: order,
  });
  expect(create.statusCode).toBe(500);

  const log = lines.join('');
  // The failures were logged, with what an operator needs…
  expect(log).toContain('unhandled error');
  expect(log).toContain('23514');
  expect(log).toContain('test_fail_register');
  expect(log).toContain('test_fail_request');
  // …and nothing of the data: no email, name, account, password or its hash, order, PIN or QR token.
  for (const value of [
    secrets.emailId,
    secrets.name,
    secrets.account,
    secrets.pwd,
    '$argon2id$',
    order.orderId,
    order.requestName,
    merchant.key,
  ]) {
    expect(log).not.toContain(value);
  }
  expect(log).not.toMatch(/params|Failing row|"detail"/);
});
