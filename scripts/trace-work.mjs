// What the web probes (`web-trace.mjs`, `web-renders.mjs`) share: signing in as TRACE_LOGIN's customer, and
// the layout and style work of a trace after its first contentful paint.
import { readFileSync } from 'node:fs';

/** The access token of TRACE_LOGIN's customer (email:password) on `base`, or null to load pages signed out. */
export async function traceLoginToken(base) {
  if (!process.env.TRACE_LOGIN) return null;
  const [emailId, pwd] = process.env.TRACE_LOGIN.split(':');
  const res = await fetch(`${base}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ emailId, pwd }),
  });
  if (!res.ok) throw new Error(`TRACE_LOGIN: sign-in answered ${res.status}`);
  return (await res.json()).accessToken;
}

/**
 * The layouts and style updates after the first contentful paint in the Chromium trace at `tracePath`, in
 * units the machine's load does not change: layouts and the objects they laid out (`dirtyObjects`), style
 * updates and the elements they restyled. Read on the renderer thread that painted the first content; null
 * when the trace has no first contentful paint.
 */
export function layoutWorkAfterFirstPaint(tracePath) {
  const trace = JSON.parse(readFileSync(tracePath, 'utf8'));
  const events = trace.traceEvents ?? trace;
  const fcp = events.find((e) => e.name === 'firstContentfulPaint');
  if (!fcp) return null;
  const after = events.filter((e) => e.pid === fcp.pid && e.tid === fcp.tid && e.ph === 'X' && e.ts >= fcp.ts);
  const layouts = after.filter((e) => e.name === 'Layout');
  const styles = after.filter((e) => e.name === 'UpdateLayoutTree');
  return {
    layouts: layouts.length,
    dirtyObjects: layouts.reduce((n, e) => n + (e.args?.beginData?.dirtyObjects ?? 0), 0),
    styleUpdates: styles.length,
    elementsRestyled: styles.reduce((n, e) => n + (e.args?.elementCount ?? 0), 0),
  };
}
