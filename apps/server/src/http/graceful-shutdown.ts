import type { FastifyInstance } from 'fastify';

export interface ShutdownSteps {
  app: FastifyInstance;
  /** Stops the job scheduler (a job already running finishes inside its transaction or rolls back). */
  stopJobs: () => void | Promise<void>;
  /**
   * Said as the shutdown begins: the embedded database this process will stop is no longer shared with an
   * instance starting meanwhile (`Database.retire`).
   */
  retireDatabase?: () => void;
  /** Closes the database pool (or stops the embedded database) once no request needs it. */
  closeDatabase: () => Promise<void>;
  /** Time between failing readiness and closing the listener, so the load balancer stops routing here. */
  drainMs: number;
  /** Past this, in-flight work is abandoned and the process exits with 1 (keep it under the orchestrator's). */
  timeoutMs: number;
  exit: (code: number) => void;
}

/** How often sockets that went idle after their last response are closed while the server drains. */
const IDLE_SWEEP_MS = 100;

/**
 * Graceful shutdown (docs/deploy.md): readiness fails at once; after `drainMs` the listener closes, new
 * requests on open connections get 503 with `Connection: close`, in-flight requests finish, live SSE
 * streams end with a final `reconnect` event, then the scheduler stops and the pool closes. Calling the
 * returned function again (a second signal) does nothing.
 */
export function gracefulShutdown(steps: ShutdownSteps): (reason: string) => Promise<void> {
  const { app } = steps;
  let started = false;
  return async (reason) => {
    if (started) return;
    started = true;
    steps.retireDatabase?.();
    app.draining = true;
    // Ctrl-C is a person at a terminal, not an orchestrator behind a balancer: nobody to drain from.
    const drainMs = reason === 'SIGINT' ? 0 : steps.drainMs;
    app.log.info({ reason, drainMs }, 'shutting down: draining');
    const deadline = setTimeout(() => {
      app.log.error({ timeoutMs: steps.timeoutMs }, 'shutdown timed out; exiting with work in flight');
      steps.exit(1);
    }, steps.timeoutMs);
    deadline.unref();
    try {
      if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
      await steps.stopJobs();
      // A connection that was mid-request when the listener closed goes idle afterwards: close it then.
      const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
      try {
        await app.close();
      } finally {
        clearInterval(sweep);
      }
      await steps.closeDatabase();
      app.log.info('shutdown complete');
      clearTimeout(deadline);
      steps.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      steps.exit(1);
    }
  };
}
