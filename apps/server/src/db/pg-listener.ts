import pg from 'pg';

/** Back-off between reconnect attempts: quick after a blip, at most every 2 s during a long outage. */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 2_000;

export type NotificationHandler = (payload: string) => void;

/**
 * The one PostgreSQL `LISTEN` connection of a server instance, shared by everything that waits for changes.
 * Triggers call `pg_notify`, so a change made by any instance, job or code path reaches every instance;
 * waiting costs no query. Its channels:
 *   - `payment_request_status`    — a payment request's status moved (live status for merchants);
 *   - `notice_created`            — a notice for a customer (live notices);
 *   - `feed_changed`, `viewer_changed`, `blocks_changed` — public and per-viewer caches to drop;
 *   - `customer_sessions_revoked` — an operator revoked a customer's tokens.
 * A lost connection (a database restart, failover or crash) never throws: it reconnects with back-off,
 * LISTENs again on every channel, then tells every listener (payload `*`) so each reads once and nothing
 * stays stale across the gap.
 */
export class PgListener {
  private client: pg.Client | undefined;
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private listening = new Set<string>();
  private closed = false;
  private connecting: Promise<void> | undefined;
  /** The last statement sent on the connection, settled either way (see `inTurn`). */
  private previousStatement: Promise<unknown> = Promise.resolve();
  /** Times the connection was lost and a reconnect began (for tests and metrics). */
  reconnects = 0;

  /**
   * @param opensAfter settles when a connection may open (`Database.connectable`: an embedded cluster's roles
   *   may still be in the making while the app is built); its failure is the start's, reported by it.
   */
  constructor(
    private readonly url: string,
    private readonly opensAfter: Promise<unknown> = Promise.resolve(),
  ) {}

  /** Resolves once the listener is connected, so a change after this call is never missed. */
  async subscribe(channel: string, handler: NotificationHandler): Promise<() => void> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    await this.connect();
    const client = this.client;
    if (client && !this.listening.has(channel)) {
      this.listening.add(channel);
      try {
        await this.inTurn(client, `listen ${pg.escapeIdentifier(channel)}`);
      } catch (error) {
        // Closed meanwhile (the server shutting down): there is nothing left to listen to, and no error.
        // A connection lost otherwise reconnects and listens again (`open`), so that is not one either.
        if (!this.closed && this.client === client) throw error;
      }
    }
    return () => set.delete(handler);
  }

  /**
   * Sends `statement` on the connection once the statements before it have answered: subscribers that start
   * together (the app's modules at start-up) would otherwise put several statements on the wire at once, which
   * pg queues today and refuses from its version 9.
   */
  private inTurn(client: pg.Client, statement: string): Promise<unknown> {
    const turn = this.previousStatement.then(() => client.query(statement));
    this.previousStatement = turn.catch(() => undefined);
    return turn;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    await this.opensAfter;
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => this.deliver(message.channel, message.payload ?? ''));
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    const listening = new Set(this.handlers.keys());
    try {
      await client.connect();
      for (const channel of listening) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      // Refused or cut while opening: this client is dropped (`lost` is for the established one) and the
      // caller, or the reconnect loop, tries again. Closed meanwhile (a shutdown, or a start that failed):
      // there is nothing left to listen to, so no error either (a subscriber may no longer be awaited).
      await client.end().catch(() => undefined);
      if (this.closed) return;
      throw error;
    }
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
    this.listening = listening;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    this.reconnects += 1;
    let delayMs = FIRST_RETRY_MS;
    const retry = () => {
      if (this.closed) return;
      this.connect().then(
        () => {
          for (const channel of this.handlers.keys()) this.deliver(channel, '*');
        },
        () => {
          delayMs = Math.min(delayMs * 2, MAX_RETRY_MS);
          setTimeout(retry, delayMs).unref();
        },
      );
    };
    setTimeout(retry, delayMs).unref();
  }

  private deliver(channel: string, payload: string): void {
    for (const handler of this.handlers.get(channel) ?? []) {
      try {
        handler(payload);
      } catch {
        // One listener's failure must not starve the others.
      }
    }
  }
}
