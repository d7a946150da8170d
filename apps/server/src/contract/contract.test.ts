import type { Endpoint } from '@ohgood/contract/endpoint';
import { allEndpoints, endpointGroups } from '@ohgood/contract/endpoints';
import { errorBody } from '@ohgood/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createHarness, type Harness } from '../test/harness';
import { createMerchant, grantPoints } from '../test/merchant-fixture';
import { createRequest, validatePin } from '../test/payment-helpers';
import { type EndpointSample, injectEndpoint } from './inject-endpoint';

/**
 * Walks every endpoint of the contract's registry against the real app on a real database and checks the
 * actual body against the declared response schema, so a route cannot drift from the contract. Each
 * endpoint needs a sample call below: the `Samples` type makes a new endpoint a compile error here until
 * it has one.
 */

interface Fixtures {
  h: Harness;
  customer(): Promise<{ token: string; customerId: number; auth: Record<string, string> }>;
  merchant(): Promise<{ headers: Record<string, string> }>;
}

type Groups = typeof endpointGroups;
type Samples = {
  [G in keyof Groups]: { [N in keyof Groups[G]]: (f: Fixtures) => Promise<EndpointSample> };
};

const samples: Samples = {
  payments: {
    validate: async (f) => {
      const { auth, customerId } = await f.customer();
      await grantPoints(f.h.database.db, customerId, 100, f.h.clock.now());
      const request = await createRequest(f.h, (await f.merchant()).headers, 4500);
      return { headers: auth, body: { codeType: 'pincode', value: request.pinCode } };
    },
    final: async (f) => {
      const { auth, token } = await f.customer();
      const request = await createRequest(f.h, (await f.merchant()).headers, 3000);
      await validatePin(f.h, token, request.pinCode);
      return {
        headers: { ...auth, 'idempotency-key': 'contract-final' },
        query: { point: 0, requestId: request.requestId },
      };
    },
    paymentHistory: async (f) => ({ headers: (await f.customer()).auth }),
    pointHistory: async (f) => ({ headers: (await f.customer()).auth, query: { month: '2026-11' } }),
    mypage: async (f) => ({ headers: (await f.customer()).auth }),
  },
};

let h: Harness;
let fixtures: Fixtures;

beforeAll(async () => {
  h = await createHarness();
  let customer: Awaited<ReturnType<Fixtures['customer']>> | undefined;
  let merchant: Awaited<ReturnType<Fixtures['merchant']>> | undefined;
  fixtures = {
    h,
    async customer() {
      if (!customer) {
        const { token, customerId } = await h.signUp();
        customer = { token, customerId, auth: bearer(token) };
      }
      return customer;
    },
    async merchant() {
      merchant ??= await createMerchant(h.database.db);
      return merchant;
    },
  };
});
afterAll(() => h.close());

const cases = Object.entries(endpointGroups).flatMap(([group, endpoints]) =>
  Object.entries(endpoints as Record<string, Endpoint>).map(([name, endpoint]) => ({
    label: `${group}.${name}: ${endpoint.method} ${endpoint.path}`,
    endpoint,
    sample: (samples as Record<string, Record<string, (f: Fixtures) => Promise<EndpointSample>>>)[group]?.[name],
  })),
);

describe('every declared endpoint answers exactly its declared body', () => {
  it('has one sample per endpoint and one route per endpoint', () => {
    expect(cases).toHaveLength(allEndpoints.length);
    for (const { label, endpoint, sample } of cases) {
      expect(sample, `${label} has no sample`).toBeTypeOf('function');
      expect(h.app.hasRoute({ method: endpoint.method, url: endpoint.path }), `${label} is not registered`).toBe(true);
    }
  });

  it('lists every endpoint in the generated OpenAPI document at /api/docs', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = res.json().paths as Record<string, Record<string, unknown>>;
    for (const { label, endpoint } of cases) {
      const path = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      expect(paths[path]?.[endpoint.method.toLowerCase()], `${label} missing from OpenAPI`).toBeDefined();
    }
  });

  it.each(cases)('$label', async ({ endpoint, sample }) => {
    if (!sample) throw new Error('no sample');
    const res = await injectEndpoint(h.app, endpoint, await sample(fixtures));
    expect(res.status, JSON.stringify(res.body)).toBe(endpoint.status ?? 200);
    const parsed = endpoint.response.safeParse(res.body);
    expect(parsed.success, parsed.error?.message).toBe(true);
  });

  it.each(cases.filter((c) => c.endpoint.access === 'customer'))(
    '$label refuses a caller without a token in the one error shape',
    async ({ endpoint }) => {
      const params = Object.fromEntries(
        [...endpoint.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => [m[1] as string, 1]),
      );
      const res = await injectEndpoint(h.app, endpoint, { params });
      expect(res.status).toBe(401);
      expect(errorBody.parse(res.body).code).toBe('UNAUTHORIZED');
    },
  );
});
