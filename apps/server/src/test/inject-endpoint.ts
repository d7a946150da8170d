import type { Endpoint } from '@ohgood/contract/endpoint';
import type { FastifyInstance } from 'fastify';

/** One concrete call of an endpoint: what a client would send. */
export interface EndpointSample {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** A multipart body, already encoded (see `multipartBody`). */
  multipart?: { payload: Buffer; contentType: string };
  headers?: Record<string, string>;
}

/** Fills a Fastify-style path (`/a/:id`) with sample params. */
export function samplePath(endpoint: Endpoint, sample: EndpointSample): string {
  const path = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = sample.params?.[name];
    if (value === undefined) throw new Error(`${endpoint.path}: sample has no param ${name}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(sample.query ?? {})) {
    if (value !== undefined) query.set(key, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** Sends the sample through the whole Fastify pipeline of the real app (guard, validation, serializer). */
export async function injectEndpoint(app: FastifyInstance, endpoint: Endpoint, sample: EndpointSample) {
  const headers: Record<string, string> = { ...sample.headers };
  let payload: string | Buffer | undefined;
  if (sample.multipart) {
    headers['content-type'] = sample.multipart.contentType;
    payload = sample.multipart.payload;
  } else if (sample.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(sample.body);
  }
  const res = await app.inject({ method: endpoint.method, url: samplePath(endpoint, sample), headers, payload });
  let body: unknown = null;
  try {
    body = res.body ? JSON.parse(res.body) : null;
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body };
}
