import { type ESTree, type Plugin, parseSync, Visitor } from 'vite';

/**
 * The fields of an endpoint declaration (packages/contract, `defineEndpoint`) that only document it: the
 * server's OpenAPI reads them, the web's caller never does (it reads method, path, access and body).
 */
const DOC_FIELDS = new Set(['summary', 'tags']);

const isDocField = (property: ESTree.ObjectExpression['properties'][number]) =>
  property.type === 'Property' &&
  !property.computed &&
  property.key.type === 'Identifier' &&
  DOC_FIELDS.has(property.key.name);

/** The module's source with each `defineEndpoint({…})` call's object written again without its documentation. */
export function withoutEndpointDocs(source: string, file: string): string {
  const { program, errors } = parseSync(file, source);
  if (errors.length > 0) return source;
  const rewrites: Array<{ start: number; end: number; text: string }> = [];
  new Visitor({
    CallExpression(call) {
      const [config] = call.arguments;
      if (call.callee.type !== 'Identifier' || call.callee.name !== 'defineEndpoint') return;
      if (config?.type !== 'ObjectExpression' || !config.properties.some(isDocField)) return;
      const kept = config.properties.filter((property) => !isDocField(property));
      const text = `{ ${kept.map((property) => source.slice(property.start, property.end)).join(', ')} }`;
      rewrites.push({ start: config.start, end: config.end, text });
    },
  }).visit(program);
  let out = source;
  for (const { start, end, text } of rewrites.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, start) + text + out.slice(end);
  }
  return out;
}

/**
 * The web builds ship endpoint declarations without their OpenAPI summaries and tags, which the browser never
 * shows: ~0.4 KB gzip of `/payment`'s chunks and ~4.6 KB over the app's (ADR 0263).
 */
export function endpointDocsLeftOut(): Plugin {
  return {
    name: 'ohgood-endpoint-docs-left-out',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]packages[\\/]contract[\\/]src[\\/][^\\/]+\.ts$/, code: 'defineEndpoint(' },
      handler: (code, id) => ({ code: withoutEndpointDocs(code, id), map: null }),
    },
  };
}
