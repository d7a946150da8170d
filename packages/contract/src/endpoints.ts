import { authEndpoints } from './auth';
import { autopayEndpoints } from './autopay';
import { billEndpoints } from './bills';
import { chatEndpoints } from './chat';
import { checkinEndpoints } from './checkin';
import type { Endpoint } from './endpoint';
import { notificationEndpoints } from './notifications';
import { merchantEndpoints, paymentEndpoints } from './payments';
import { reportEndpoints } from './report';
import { shortsEndpoints } from './shorts';
import { discoveryEndpoints } from './shorts-discovery';

/**
 * Every declared endpoint, by domain: the one list. The server's contract test walks it, so an endpoint
 * added to a domain's object is covered without further wiring. Add a new domain's object here.
 * (Not for the web: it imports the domain it calls, to keep route chunks small.)
 */
export const endpointGroups = {
  auth: authEndpoints,
  merchants: merchantEndpoints,
  payments: paymentEndpoints,
  bills: billEndpoints,
  autopay: autopayEndpoints,
  notifications: notificationEndpoints,
  checkin: checkinEndpoints,
  shorts: shortsEndpoints,
  shortsDiscovery: discoveryEndpoints,
  report: reportEndpoints,
  chat: chatEndpoints,
} as const satisfies Record<string, Record<string, Endpoint>>;

export const allEndpoints: readonly Endpoint[] = Object.values(endpointGroups).flatMap((group) =>
  Object.values<Endpoint>(group),
);
