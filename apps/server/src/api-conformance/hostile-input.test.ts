import { randomUUID } from 'node:crypto';
import type { Endpoint } from '@ohgood/contract/endpoint';
import { allEndpoints } from '@ohgood/contract/endpoints';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { z } from 'zod';
import { createHarness, type Harness } from '../test/harness';
import { type EndpointSample, injectEndpoint } from '../test/inject-endpoint';
import { createMerchant } from '../test/merchant-fixture';

/*
 * Every endpoint of the contract registry, driven with hostile values in each path
 * parameter, query value and body field (and as the whole body), must answer without a 5xx: ids beyond the
 * database's integer range, NUL and other control characters, RTL overrides, 10,000-character strings,
 * emoji, and the wrong types. New endpoints are covered by being in the registry.
 */

const HOSTILE_STRINGS = [
  '2147483648',
  '99999999999999999999999',
  '-1',
  '0',
  '1e308',
  'NaN',
  '\u0000',
  `abc\u0000def`,
  '\u0007\u001b[31m',
  '\u202Eevil\u202C',
  'x'.repeat(10_000),
  '😀'.repeat(200),
  "' or 1=1 --",
  '../../etc/passwd',
];
const HOSTILE_VALUES: unknown[] = [
  ...HOSTILE_STRINGS,
  2 ** 31,
  2 ** 53,
  -1,
  1e308,
  0.5,
  null,
  true,
  {},
  [],
  [2 ** 31],
  { $gt: '' },
];

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; options?: z.ZodType[]; entries?: object };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A plausible value of a schema, so hostile values reach each field with the others valid. */
function plausible(schema: z.ZodType): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return def.innerType ? plausible(def.innerType) : undefined;
    case 'pipe':
      return def.in ? plausible(def.in) : undefined;
    case 'union':
      return def.options?.[0] ? plausible(def.options[0]) : undefined;
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'array':
      return [1];
    case 'object':
      return Object.fromEntries(
        Object.entries((schema as unknown as z.ZodObject).shape).map(([key, inner]) => [key, plausible(inner)]),
      );
    default:
      return 'abc';
  }
}

const keysOf = (schema: z.ZodType | undefined) =>
  schema && defOf(schema).type === 'object' ? Object.keys((schema as unknown as z.ZodObject).shape) : [];

let h: Harness;
let headersFor: (endpoint: Endpoint) => Record<string, string>;
beforeAll(async () => {
  h = await createHarness();
  const { token } = await h.signUp();
  const merchant = await createMerchant(h.database.db);
  headersFor = (endpoint): Record<string, string> =>
    endpoint.access === 'merchant'
      ? merchant.headers
      : endpoint.access === 'public'
        ? {}
        : { authorization: `Bearer ${token}` };
});
afterAll(() => h.close());

/** Every hostile call of one endpoint: each param, query key and body field in turn, and whole bodies. */
function hostileSamples(endpoint: Endpoint): EndpointSample[] {
  const headers = headersFor(endpoint);
  const params = Object.fromEntries(
    keysOf(endpoint.params).map((key) => [key, key === 'requestId' ? randomUUID() : '1']),
  );
  const body = endpoint.body && endpoint.body !== 'multipart' ? plausible(endpoint.body) : undefined;
  const samples: EndpointSample[] = [];
  for (const key of keysOf(endpoint.params)) {
    for (const value of HOSTILE_STRINGS) samples.push({ headers, params: { ...params, [key]: value }, body });
  }
  for (const key of keysOf(endpoint.query)) {
    for (const value of HOSTILE_STRINGS) samples.push({ headers, params, query: { [key]: value }, body });
  }
  if (endpoint.body && endpoint.body !== 'multipart') {
    for (const key of keysOf(endpoint.body)) {
      for (const value of HOSTILE_VALUES) {
        samples.push({ headers, params, body: { ...(body as object), [key]: value } });
      }
    }
    for (const value of HOSTILE_VALUES) samples.push({ headers, params, body: value === null ? 'null' : value });
  }
  if (samples.length === 0) samples.push({ headers, params });
  return samples;
}

it('no endpoint answers a hostile value with a 5xx: huge ids, NUL, RTL, 10k strings, emoji, wrong types', async () => {
  const failures: string[] = [];
  let calls = 0;
  for (const endpoint of allEndpoints) {
    for (const sample of hostileSamples(endpoint)) {
      calls += 1;
      const res = await injectEndpoint(h.app, endpoint, sample);
      if (res.status >= 500) {
        failures.push(`${endpoint.method} ${endpoint.path} ${JSON.stringify(sample).slice(0, 160)} → ${res.status}`);
      }
    }
  }
  expect(failures).toEqual([]);
  expect(calls).toBeGreaterThan(allEndpoints.length * 5);
}, 300_000);

it('ids beyond the database range are refused (400/404), and text with control characters is a 400', async () => {
  const get = (url: string) => h.app.inject({ method: 'GET', url });
  expect([400, 404]).toContain((await get('/api/public/shorts/2147483648')).statusCode);
  expect([400, 404]).toContain((await get('/api/public/shorts/99999999999999999999')).statusCode);
  const merchant = await createMerchant(h.database.db);
  const order = await h.app.inject({
    method: 'POST',
    url: '/api/merchant/payment-requests',
    headers: merchant.headers,
    payload: { orderId: 'a\u0000b', requestName: '상품', totalPrice: 1000 },
  });
  expect(order.statusCode).toBe(400);
  expect(order.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
  const search = await get(`/api/public/shorts/feeds?keyword=${encodeURIComponent('커피\u0000')}`);
  expect(search.statusCode).toBe(400);
});
