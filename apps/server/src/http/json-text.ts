import { ok } from '../lib/envelope';

/**
 * A response body already written as JSON text, for hot paths that assemble it from parts checked once
 * (the feed's items, ADR 0108) instead of checking and serializing the whole body on every request. The
 * route's serializer sends the text as it is; the type parameter ties it to the body it stands for, so a
 * handler can only return the text of its own endpoint's response.
 */
export class JsonText<Body> {
  declare readonly body: Body;
  /** `bytes`: the JSON text, UTF-8 encoded (a hot path joins parts it encoded once, so nothing is encoded per request). */
  constructor(readonly bytes: Buffer) {}

  get text(): string {
    return this.bytes.toString('utf8');
  }
}

/** Wraps a route serializer so a `JsonText` passes through unchanged and everything else is serialized. */
export function passJsonText(serialize: (data: unknown) => string): (data: unknown) => string {
  // Fastify sends a Buffer from a serializer as it is, though its type for serializers says string.
  return (data) => (data instanceof JsonText ? (data.bytes as unknown as string) : serialize(data));
}

/** `{"success":true,"message":"OK","data":[` — the success envelope up to its list. */
const LIST_OPEN = Buffer.from(`${JSON.stringify(ok(null)).replace(/,"data":null}$/, '')},"data":[`);
const COMMA = Buffer.from(',');
const LIST_CLOSE = Buffer.from(']');
const BODY_CLOSE = Buffer.from('}');

/**
 * A success envelope whose `data` is a list, as JSON text: each item is the concatenation of its parts
 * (encoded once by the caller), and `besideData` holds members after `data` (the feed's paging) as an
 * object's JSON, or nothing.
 */
export function okListText<Body>(items: ReadonlyArray<readonly Buffer[]>, besideData?: object): JsonText<Body> {
  const parts: Buffer[] = [LIST_OPEN];
  items.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(...item);
  });
  parts.push(LIST_CLOSE);
  parts.push(besideData ? Buffer.from(`,${JSON.stringify(besideData).slice(1)}`) : BODY_CLOSE);
  return new JsonText(Buffer.concat(parts));
}
