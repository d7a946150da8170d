/**
 * The web bundle's stand-in for zod (aliased in vite.config.ts; ADR 0010). The web imports endpoint
 * declarations from the contract for their method, path and access; their zod schemas are only types here.
 * Bundling real zod would add ~90 KB gzip to the first load, so every schema builder becomes an inert,
 * chainable value. Parsing is never done in the browser, and says so if someone tries; any other use of a
 * schema as a value would silently do nothing, which schema-values.test.ts forbids (ADR 0116).
 */
const refuse = () => {
  throw new Error('zod is not bundled in the web app: schemas are types only here (ADR 0010).');
};
const REFUSED = new Set(['parse', 'safeParse', 'parseAsync', 'safeParseAsync', 'decode', 'encode']);

const inert: object = new Proxy(() => inert, {
  get: (_target, key) => {
    if (key === Symbol.toPrimitive || key === 'then') return undefined;
    return REFUSED.has(String(key)) ? refuse : inert;
  },
  apply: () => inert,
});

export const z = inert;
export default inert;
