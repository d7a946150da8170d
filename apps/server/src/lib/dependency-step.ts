/**
 * A start-up step that needs one dependency: when it fails, the error says which dependency, where, and
 * why in a word (ECONNREFUSED, 28P01, …), instead of a driver's bare message. Never the URL's credentials.
 */
export async function dependencyStep<T>(dependency: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new Error(`${dependency} failed at start-up: ${reasonOf(error)}`, { cause: error });
  }
}

/** Why a dependency failed, in a word or line: its code, error name and first line, never a URL's secrets. */
export function reasonOf(error: unknown): string {
  const coded = error as { code?: unknown; name?: unknown; message?: unknown; errors?: unknown };
  const first = Array.isArray(coded?.errors) ? (coded.errors[0] as { code?: unknown } | undefined) : undefined;
  const code = typeof coded?.code === 'string' ? coded.code : typeof first?.code === 'string' ? first.code : '';
  const message = typeof coded?.message === 'string' ? coded.message.split('\n')[0]?.slice(0, 200) : '';
  const name = typeof coded?.name === 'string' && coded.name !== 'Error' ? coded.name : '';
  return [code, name, message].filter((part, i, all) => part && all.indexOf(part) === i).join(' ') || 'unknown error';
}

/** Where a database URL points, without user or password: `host:port/database`. */
export function databaseWhere(url: string): string {
  const parsed = new URL(url);
  const socket = parsed.searchParams.get('host');
  return `${socket ?? parsed.host}${parsed.pathname}`;
}
