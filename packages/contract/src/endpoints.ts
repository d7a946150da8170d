import { authEndpoints } from './auth';
import { autopayEndpoints } from './autopay';
import { billEndpoints } from './bills';
import { chatEndpoints } from './chat';
import { checkinEndpoints } from './checkin';
import type { Endpoint } from './endpoint';
import { merchantPaymentsEndpoints, merchantUserOpsEndpoints } from './merchant-portal';
import { monthEndEndpoints } from './month-end';
import { notificationEndpoints } from './notifications';
import { opsEndpoints } from './ops';
import { opsCollectionsEndpoints } from './ops-collections';
import { opsDeskEndpoints } from './ops-desk';
import { merchantEndpoints, paymentEndpoints } from './payments';
import { reportEndpoints } from './report';
import { safetyEndpoints } from './safety';
import { merchantSettlementEndpoints, opsSettlementEndpoints } from './settlements';
import { shortsEndpoints } from './shorts';
import { discoveryEndpoints } from './shorts-discovery';
import { opsWebhookEndpoints, webhookEndpoints } from './webhooks';

/**
 * Every declared endpoint, by domain: the one list. The server's contract test walks it, so an endpoint
 * added to a domain's object is covered without further wiring. Add a new domain's object here.
 * (Not for the web: it imports the domain it calls, to keep route chunks small.)
 */
export const endpointGroups = {
  auth: authEndpoints,
  merchants: merchantEndpoints,
  merchantPayments: merchantPaymentsEndpoints,
  settlements: merchantSettlementEndpoints,
  payments: paymentEndpoints,
  bills: billEndpoints,
  autopay: autopayEndpoints,
  notifications: notificationEndpoints,
  checkin: checkinEndpoints,
  shorts: shortsEndpoints,
  shortsDiscovery: discoveryEndpoints,
  safety: safetyEndpoints,
  report: reportEndpoints,
  chat: chatEndpoints,
  webhooks: webhookEndpoints,
} as const satisfies Record<string, Record<string, Endpoint>>;

export const allEndpoints: readonly Endpoint[] = Object.values(endpointGroups).flatMap((group) =>
  Object.values<Endpoint>(group),
);

/**
 * The operator console's endpoints (`/api/ops/*`), kept apart from the customer API above: their access test
 * (`modules/ops/access.test.ts`) walks this list role by role, and they are no part of the public contract.
 */
export const staffEndpoints: readonly Endpoint[] = [
  ...Object.values<Endpoint>(opsEndpoints),
  ...Object.values<Endpoint>(monthEndEndpoints),
  ...Object.values<Endpoint>(merchantUserOpsEndpoints),
  ...Object.values<Endpoint>(opsDeskEndpoints),
  ...Object.values<Endpoint>(opsCollectionsEndpoints),
  ...Object.values<Endpoint>(opsSettlementEndpoints),
  ...Object.values<Endpoint>(opsWebhookEndpoints),
];
