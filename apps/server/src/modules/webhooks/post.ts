import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkedAddressOf, type OutboundRules, type Resolve } from '../../lib/outbound-address';

/** What one attempt came to: an HTTP status, or why none came (refused address, timeout, connection). */
export type PostOutcome = { status: number; durationMs: number } | { error: string; durationMs: number };

export interface PostOptions extends OutboundRules {
  resolve: Resolve;
  timeoutMs: number;
}

/**
 * POSTs `body` to `url` as JSON, connecting to the address checked just now (lib/outbound-address.ts) rather
 * than letting the HTTP client resolve the name again: what was checked is what is reached. TLS still checks
 * the certificate against the URL's host name. The answer's body is never read beyond its status; the whole
 * attempt, answer included, ends after `timeoutMs`.
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostOutcome> {
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);
  const target = new URL(url);
  const checked = await checkedAddressOf(target, options, options.resolve);
  if (!checked.ok) return { error: `refused: ${checked.reason}`, durationMs: elapsed() };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const hostname = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
  return new Promise<PostOutcome>((resolve) => {
    const req = send(
      {
        host: checked.address,
        servername: hostname,
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: {
          host: target.host,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body).toString(),
          'user-agent': 'OhGoodPay-Webhooks/1',
          ...headers,
        },
        signal: AbortSignal.timeout(options.timeoutMs),
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        res.resume();
        res.on('end', () => resolve({ status, durationMs: elapsed() }));
        res.on('error', () => resolve({ status, durationMs: elapsed() }));
      },
    );
    req.on('error', (error: Error) =>
      resolve({
        error: error.name === 'AbortError' ? 'timeout' : `connection: ${error.message}`,
        durationMs: elapsed(),
      }),
    );
    req.end(body);
  });
}
