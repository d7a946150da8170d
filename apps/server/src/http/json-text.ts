/**
 * A response body already written as JSON text, for hot paths that assemble it from parts checked once
 * (the feed's items, ADR 0108) instead of checking and serializing the whole body on every request. The
 * route's serializer sends the text as it is; the type parameter ties it to the body it stands for, so a
 * handler can only return the text of its own endpoint's response.
 */
export class JsonText<Body> {
  declare readonly body: Body;
  constructor(readonly text: string) {}
}

/** Wraps a route serializer so a `JsonText` passes through unchanged and everything else is serialized. */
export function passJsonText(serialize: (data: unknown) => string): (data: unknown) => string {
  return (data) => (data instanceof JsonText ? data.text : serialize(data));
}
