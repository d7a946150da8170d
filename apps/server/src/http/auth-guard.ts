import { type EndpointAccess, isStaffAccess } from '@ohgood/contract/endpoint';
import { MSG } from '@ohgood/contract/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, unauthorized } from '../lib/errors';
import type { TokenService } from '../modules/auth/tokens';
import type { MerchantUserPrincipal } from '../modules/merchant-portal/principal';
import type { StaffPrincipal } from '../modules/ops/staff-principal';

/**
 * Who may call a route (declared per endpoint in the contract). Default-deny: a route that says nothing
 * needs a customer token; `merchant` needs a valid `X-Merchant-Key` or a merchant user's portal session,
 * checked here like the customer token; `merchant-portal` needs the session, never a key.
 */
export type RouteAccess = EndpointAccess;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    customerId: number | null;
    merchantId: number | null;
    /** The merchant user of a portal request (ADR 0234); null when a key (or nothing) authenticated it. */
    merchantUser: MerchantUserPrincipal | null;
    /** The operator of a console request (docs/rules/operations.md#O1). */
    staff: StaffPrincipal | null;
  }
}

/** Resolves a console token to its operator, or null (ended, idle, unknown). */
export type StaffResolver = (token: string) => Promise<StaffPrincipal | null>;

/** Console paths: only console access opens them, so a route there without a role list is refused. */
const STAFF_PATH = '/api/ops/';

/** Resolves a merchant API key to its merchant id, or null for an unknown key. */
export type MerchantKeyResolver = (key: string) => Promise<number | null>;

/** Resolves a merchant portal token to its merchant user, or null (ended, idle, unknown). */
export type MerchantUserResolver = (token: string) => Promise<MerchantUserPrincipal | null>;

/** The token of `Authorization: Bearer <token>`; the scheme name is case-insensitive (RFC 9110). */
function bearer(request: FastifyRequest): string | null {
  const match = /^bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

function merchantKey(request: FastifyRequest): string | null {
  const header = request.headers['x-merchant-key'];
  const key = Array.isArray(header) ? header[0] : header;
  return key || null;
}

/** The caller's id from the token; identity comes from nowhere else (docs/rules/money-and-time.md#T3). */
export function requireCustomer(request: FastifyRequest): number {
  if (request.customerId === null) throw unauthorized(MSG.unauthorized);
  return request.customerId;
}

/** The operator the guard authenticated; only console routes reach this. */
export function requireStaff(request: FastifyRequest): StaffPrincipal {
  if (request.staff === null) throw unauthorized(MSG.unauthorized);
  return request.staff;
}

/**
 * Console access (docs/rules/operations.md#O1): a console token (never a customer's) naming an open session;
 * past the second factor and holding one of the declared roles, or — for the TOTP step only — before it.
 */
async function checkStaff(request: FastifyRequest, access: EndpointAccess, staff: StaffResolver): Promise<void> {
  const token = bearer(request);
  const principal = token ? await staff(token) : null;
  if (!principal) throw unauthorized(MSG.unauthorized);
  if (access === 'staff-pending') {
    if (principal.totp) throw new AppError(403, 'FORBIDDEN', MSG.forbidden);
  } else if (!principal.totp) {
    throw unauthorized('OTP 인증이 필요합니다.');
  } else if (!isStaffAccess(access) || !access.staff.includes(principal.role)) {
    throw new AppError(403, 'FORBIDDEN', MSG.forbidden);
  }
  request.staff = principal;
}

/** The merchant the guard authenticated; a route only reaches this when it declared `access: 'merchant'`. */
export function requireMerchant(request: FastifyRequest): number {
  if (request.merchantId === null) throw new AppError(401, 'MERCHANT_KEY_REQUIRED', '가맹점 API 키가 필요합니다.');
  return request.merchantId;
}

/** The merchant user of a portal session; only `merchant-portal` routes (and the TOTP step) reach this. */
export function requireMerchantUser(request: FastifyRequest): MerchantUserPrincipal {
  if (request.merchantUser === null) throw unauthorized(MSG.unauthorized);
  return request.merchantUser;
}

/** The resolvers of the merchant side: API keys and portal sessions. */
export interface MerchantResolvers {
  key: MerchantKeyResolver;
  portal: MerchantUserResolver;
}

const portalSessionRequired = () => new AppError(401, 'PORTAL_SESSION_REQUIRED', '가맹점 포털 로그인이 필요합니다.');

/**
 * Merchant access (ADR 0234): an `X-Merchant-Key` or a portal session (both factors passed) resolve the same
 * merchant id; `merchant-portal` routes take only the session, so a key never manages keys; the TOTP step
 * (`merchant-portal-pending`) takes a session before its second factor, and only such a one.
 */
async function checkMerchant(request: FastifyRequest, access: EndpointAccess, merchants: MerchantResolvers) {
  const key = merchantKey(request);
  if (access === 'merchant' && key) {
    const merchantId = await merchants.key(key);
    if (merchantId === null) throw new AppError(401, 'INVALID_MERCHANT_KEY', '가맹점 API 키가 올바르지 않습니다.');
    request.merchantId = merchantId;
    return;
  }
  const token = bearer(request);
  if (!token) {
    if (access === 'merchant') throw new AppError(401, 'MERCHANT_KEY_REQUIRED', '가맹점 API 키가 필요합니다.');
    throw portalSessionRequired();
  }
  const principal = await merchants.portal(token);
  if (!principal) throw portalSessionRequired();
  if (access === 'merchant-portal-pending') {
    if (principal.totp) throw new AppError(403, 'FORBIDDEN', MSG.forbidden);
  } else if (!principal.totp) {
    throw unauthorized('OTP 인증이 필요합니다.');
  }
  request.merchantUser = principal;
  request.merchantId = principal.merchantId;
}

const MERCHANT_ACCESS = new Set<EndpointAccess>(['merchant', 'merchant-portal', 'merchant-portal-pending']);

export function registerAuthGuard(
  app: FastifyInstance,
  tokens: TokenService,
  merchants: MerchantResolvers,
  staff: StaffResolver,
): void {
  app.decorateRequest('customerId', null);
  app.decorateRequest('merchantId', null);
  app.decorateRequest('merchantUser', null);
  app.decorateRequest('staff', null);
  app.addHook('onRequest', async (request) => {
    // Unmatched paths reach the not-found handler: the SPA fallback or a JSON 404, never a 401.
    if (request.is404) return;
    const access = request.routeOptions.config.access ?? 'customer';
    if (access === 'public') return;
    if (access === 'staff-pending' || isStaffAccess(access)) return checkStaff(request, access, staff);
    // Default-deny for the console: a route there that declares no roles opens to nobody.
    if (request.routeOptions.url?.startsWith(STAFF_PATH)) throw new AppError(403, 'FORBIDDEN', MSG.forbidden);
    if (MERCHANT_ACCESS.has(access)) return checkMerchant(request, access, merchants);
    const token = bearer(request);
    const customerId = token ? await tokens.verify(token) : null;
    if (customerId === null && access === 'customer') throw unauthorized(MSG.unauthorized);
    request.customerId = customerId;
  });
}
