import pg from 'pg';

export type NotificationHandler = (payload: string) => void;

/**
 * One PostgreSQL `LISTEN` connection per server instance, shared by everything that waits for changes
 * (live payment status, public caches). Triggers call `pg_notify`, so a change made by any instance, job or
 * code path reaches every instance; waiting costs no query. The connection reconnects after a failure and
 * then tells every listener (payload `*`) so nothing stays stale across the gap.
 */
export class Notifications {
  private client: pg.Client | undefined;
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private listening = new Set<string>();
  private closed = false;
  private connecting: Promise<void> | undefined;

  constructor(private readonly url: string) {}

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
        await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      } catch (error) {
        // Closed meanwhile (the server shutting down): there is nothing left to listen to, and no error.
        // A connection lost otherwise reconnects and listens again (`open`), so that is not one either.
        if (!this.closed && this.client === client) throw error;
      }
    }
    return () => set.delete(handler);
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
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => this.deliver(message.channel, message.payload ?? ''));
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    const listening = new Set(this.handlers.keys());
    for (const channel of listening) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
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
    const retry = () => {
      if (this.closed) return;
      this.connect().then(
        () => {
          for (const channel of this.handlers.keys()) this.deliver(channel, '*');
        },
        () => setTimeout(retry, 1000).unref(),
      );
    };
    setTimeout(retry, 100).unref();
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
