import { hasControlChars } from '@ohgood/contract/input';
import { MSG } from '@ohgood/contract/messages';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../lib/errors';

function hostile(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return hasControlChars(value);
  if (depth > 8 || value === null || typeof value !== 'object') return false;
  // Keys and values of own enumerable members, as `Object.entries` gives them, without its pair per member:
  // this runs on every request.
  for (const key of Object.keys(value)) {
    if (hasControlChars(key) || hostile((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

/**
 * The net under the contract's `plainText()` fields: no path parameter, query value or JSON body string
 * of any endpoint reaches a handler (or PostgreSQL, which cannot store NUL) with a control character in it.
 */
export function registerInputGuard(app: FastifyInstance): void {
  // A callback hook (every request passes it; an async one costs a promise and a microtask each time).
  app.addHook('preValidation', (request, _reply, done) => {
    const refused = hostile(request.params) || hostile(request.query) || hostile(request.body);
    done(refused ? badRequest('VALIDATION_ERROR', MSG.validation) : undefined);
  });
}
