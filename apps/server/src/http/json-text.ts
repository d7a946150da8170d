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
