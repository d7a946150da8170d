import { badRequest } from '../../lib/errors';

/** A keyset position: an instant (ms) and an id, both compared descending. */
export interface Keyset {
  at: number;
  id: number;
}

/** Opaque to clients: base64url of `[ms, id]`. Clients pass it back unchanged. */
export function encodeCursor(position: Keyset): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): Keyset | null {
  if (!cursor) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      value.every((n) => Number.isSafeInteger(n) && n >= 0) &&
      value[1] <= 2_147_483_647
    ) {
      return { at: value[0], id: value[1] };
    }
  } catch {
    // falls through to the error below
  }
  throw badRequest('INVALID_CURSOR', '잘못된 커서입니다.');
}
