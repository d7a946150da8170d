import type { Endpoint } from './endpoint';
import { paymentEndpoints } from './payments';

/**
 * Every declared endpoint, by domain: the one list. The server's contract test walks it, so an endpoint
 * added to a domain's object is covered without further wiring. Add a new domain's object here.
 * (Not for the web: it imports the domain it calls, to keep route chunks small.)
 */
export const endpointGroups = {
  payments: paymentEndpoints,
} as const satisfies Record<string, Record<string, Endpoint>>;

export const allEndpoints: readonly Endpoint[] = Object.values(endpointGroups).flatMap((group) =>
  Object.values<Endpoint>(group),
);
