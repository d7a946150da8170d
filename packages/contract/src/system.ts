import { z } from 'zod';

/** One dependency as the readiness probe saw it. */
export const dependencyCheck = z.enum(['ok', 'error']);

/**
 * `GET /health/ready`: 200 when this instance can take traffic (the database answers and DATA_DIR can be
 * written), else 503 with the same body; `draining` is true from SIGTERM on, so the load balancer stops
 * sending requests. The media store (`storage`) is reported but does not take the instance out: payments and
 * feeds work without it, only uploads wait for it.
 */
export const readinessResponse = z.object({
  status: z.enum(['ready', 'not-ready']),
  draining: z.boolean(),
  checks: z.object({ database: dependencyCheck, storage: dependencyCheck, dataDir: dependencyCheck }),
});
export type ReadinessResponse = z.infer<typeof readinessResponse>;
