import { expect, it } from 'vitest';
import { checkedAddressOf, isPublicAddress, refusalOfUrl } from './outbound-address';

const strict = { allowLoopback: false };
const dev = { allowLoopback: true };

it.each([
  ['10.0.0.1', false],
  ['172.31.255.255', false],
  ['172.32.0.1', true],
  ['100.64.0.1', false],
  ['169.254.169.254', false],
  ['127.0.0.1', false],
  ['0.0.0.0', false],
  ['224.0.0.1', false],
  ['8.8.8.8', true],
  ['::1', false],
  ['fe80::1', false],
  ['fd12:3456::1', false],
  ['::ffff:192.168.0.1', false],
  ['::ffff:8.8.8.8', true],
  ['2606:4700::1111', true],
])('%s is public: %s', (address, expected) => {
  expect(isPublicAddress(address)).toBe(expected);
});

it('refuses plain http, credentials and loopback unless loopback is allowed', () => {
  expect(refusalOfUrl('http://shop.example.com/', strict)).toBe('not https');
  expect(refusalOfUrl('https://a:b@shop.example.com/', strict)).toBe('credentials in the URL');
  expect(refusalOfUrl('http://127.0.0.1:3000/', strict)).toBe('loopback address');
  expect(refusalOfUrl('http://[::1]:3000/', strict)).toBe('loopback address');
  expect(refusalOfUrl('http://127.0.0.1:3000/', dev)).toBeUndefined();
  expect(refusalOfUrl('http://10.0.0.1/', dev)).toBe('not https');
  expect(refusalOfUrl('https://shop.example.com/hooks', strict)).toBeUndefined();
});

it('connects to the first answer only when every answer is public', async () => {
  const url = new URL('https://shop.example.com/hooks');
  expect(await checkedAddressOf(url, strict, async () => ['8.8.8.8', '1.1.1.1'])).toEqual({
    ok: true,
    address: '8.8.8.8',
  });
  expect(await checkedAddressOf(url, strict, async () => ['8.8.8.8', '10.0.0.1'])).toEqual({
    ok: false,
    reason: 'private address',
  });
  expect(await checkedAddressOf(url, strict, async () => [])).toEqual({ ok: false, reason: 'host not found' });
  expect(
    await checkedAddressOf(url, strict, async () => {
      throw new Error('ENOTFOUND');
    }),
  ).toEqual({ ok: false, reason: 'host not found' });
});
