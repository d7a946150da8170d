import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_DATA_DIR } from './embedded-choice';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * What is wrong with a URL that should have one of `protocols` and a host (and, for a database, a path), or
 * null. `z.string().url()` alone takes 'localhost:5432/ohgood' (the scheme 'localhost:'), which then fails
 * much later inside a driver with a message naming nothing.
 */
function urlProblem(value: string, protocols: string[], example: string, needsPath = false): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be a full URL such as ${example}`;
  }
  if (!protocols.includes(url.protocol) || (url.hostname === '' && !url.searchParams.has('host'))) {
    return `must be a full URL such as ${example}`;
  }
  if (needsPath && url.pathname.length <= 1) return `must name the database, e.g. ${example}`;
  return null;
}

function urlOf(protocols: string[], example: string, needsPath = false) {
  return z.string().superRefine((value, ctx) => {
    const problem = urlProblem(value, protocols, example, needsPath);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}
const httpUrl = (example: string) => urlOf(['http:', 'https:'], example);
const databaseUrl = urlOf(['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/ohgood', true);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  DATABASE_URL: databaseUrl.optional(),
  /**
   * The owner role's URL, for migrations only (with DATABASE_URL): the app then connects as DATABASE_URL's
   * runtime role, which gets only the DML it needs (docs/deploy.md, "Database roles").
   */
  MIGRATION_DATABASE_URL: databaseUrl.optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Demo data on start; defaults to true only on the embedded database (never on a real DATABASE_URL). */
  SEED_DEMO: bool.optional(),
  WEB_DIST: z.string().optional(),
  PAYMENT_REQUEST_TTL_SECONDS: z.coerce.number().int().min(10).max(3600).default(120),
  DEMO_MERCHANT_KEY: z.string().min(8).default('demo-merchant-key'),
  RUN_JOBS: bool.default(true),
  TRUST_PROXY: bool.default(false),
  /** Shorts media: where files live and how the web app reaches them. */
  MEDIA_DIR: z.string().optional(),
  MEDIA_BASE_URL: z.string().default('/media/'),
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: httpUrl('http://minio.internal:9000').optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(true),
  FFMPEG_PATH: z.string().optional(),
  FFPROBE_PATH: z.string().optional(),
  UPLOAD_MAX_VIDEO_MB: z.coerce.number().positive().default(100),
  UPLOAD_MAX_THUMBNAIL_MB: z.coerce.number().positive().default(5),
  UPLOAD_MAX_DURATION_SECONDS: z.coerce.number().positive().default(60),
  /** Test/demo only: the server's clock starts at this instant and runs on from there. */
  CLOCK_START: z.string().datetime({ offset: true }).optional(),
  /** Anonymous public shorts answers (feed, one short, comments) are kept this long in process. */
  PUBLIC_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /**
   * The anonymous feed's pages are kept longer: a real change of a short (new, hidden, deleted, edited) and the
   * ranking's refresh drop them at once; only their like and comment counts may lag, until the refresh.
   */
  PUBLIC_FEED_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
  /** Bearer token for `GET /metrics` (Prometheus); unset = no metrics endpoint (404). */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /** Successful sign-ups allowed per client IP per hour and per day (each account gets a limit at once). */
  SIGNUPS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(5),
  SIGNUPS_PER_IP_PER_DAY: z.coerce.number().int().positive().default(20),
  /**
   * Live streams one owner keeps open on one instance (docs/security.md, stream flooding); one more ends the
   * oldest with `event: reconnect`. Notices per customer: a phone and a few browser tabs. Status per payment
   * request: its checkout screen, a reload of it and the merchant's server (`npm run bench` raises it to watch
   * one request from 1,000 streams).
   */
  NOTICE_STREAMS_PER_CUSTOMER: z.coerce.number().int().positive().default(5),
  STATUS_STREAMS_PER_REQUEST: z.coerce.number().int().positive().default(3),
  /**
   * Graceful shutdown: seconds readiness fails before the listener closes, and the hard limit. The drain's
   * default covers a balancer probing every 2 s that needs 2 failures (docs/deploy.md): with 0, requests it
   * still sends in that gap meet a closed port. Ctrl-C (SIGINT) at a terminal skips it.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(5),
  /**
   * How long start-up waits for an external database that is down (a failover, a restart, a deploy that
   * started the app first), trying again with back-off and serving liveness meanwhile, before it exits.
   */
  DATABASE_WAIT_SECONDS: z.coerce.number().min(0).max(3600).default(120),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(25),
  /** Origin used in QR deep links; when unset, the origin of the merchant's request. */
  PUBLIC_URL: httpUrl('https://pay.example.com').optional(),
  /** Optional OpenAI-compatible model for the chatbot; off unless a base URL and model are set. */
  CHAT_LLM_BASE_URL: httpUrl('http://127.0.0.1:8080/v1').optional(),
  CHAT_LLM_API_KEY: z.string().optional(),
  CHAT_LLM_MODEL: z.string().optional(),
  /** Web Push (VAPID) keys; generated once into DATA_DIR/vapid.json when unset. Set both when scaling out. */
  VAPID_PUBLIC_KEY: z.string().min(40).optional(),
  VAPID_PRIVATE_KEY: z.string().min(20).optional(),
  VAPID_SUBJECT: z.string().default('mailto:support@ohgood.kr'),
  /**
   * Hosts a Web Push subscription may point at (a suffix match), so the server never posts to an address a
   * client made up. The browsers' push services by default.
   */
  PUSH_HOSTS: z
    .string()
    .default('fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com')
    .transform((list) =>
      list
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    ),
  /**
   * How long one push may take (ms). Devices are sent to side by side, so a device that never answers costs
   * its own attempt this long, never another device's.
   */
  PUSH_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5000),
  /**
   * Tests only, off by default: a push endpoint on the loopback address (127.0.0.1, ::1, localhost) is taken
   * over plain `http:` on any port, so a test's local push service can stand in for a real one. Every other
   * endpoint must be `https:` on port 443 at a host of PUSH_HOSTS.
   */
  PUSH_ALLOW_LOOPBACK: bool.default(false),
  /**
   * Development and tests only, off by default: a merchant's webhook URL may be a loopback address, over
   * plain `http:` on any port. Every other URL must be `https:` at a public address (docs/rules/webhooks.md#W2).
   */
  WEBHOOKS_ALLOW_LOOPBACK: bool.default(false),
  /**
   * Development and e2e only, off by default: the sandbox bank's "bank app" endpoint
   * (`GET /api/payment/autopay/sandbox-deposits`) shows the caller's 1원 인증 deposits. Never with a real bank.
   */
  SANDBOX_BANK_INBOX: bool.default(false),
  /** Run the outbox relay on this instance (tests switch it off to play a crashed instance). */
  DISPATCH_EVENTS: bool.default(true),
  CHAT_LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(5000).default(5000),
});

export type Config = Omit<z.infer<typeof envSchema>, 'SEED_DEMO'> & { SEED_DEMO: boolean };

/** Reads the environment; on a bad value, fails with a readable list of every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set" (e.g. DATABASE_URL= in a shell or a test runner).
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  // A real deployment (DATABASE_URL) never gets demo accounts and their published keys unless asked for.
  return { ...parsed.data, SEED_DEMO: parsed.data.SEED_DEMO ?? !parsed.data.DATABASE_URL };
}

/** Defaults for tests and tools that build the app without an environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  // Scratch files of tests go to the system temp directory, never into the repository's ./data. No response
  // cache by default: tests write rows directly and read them back at once; the cache has its own tests.
  const DATA_DIR = join(tmpdir(), 'ohgood-test-data');
  return {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR, PUBLIC_CACHE_MS: '0', PUBLIC_FEED_CACHE_MS: '0' }),
    ...overrides,
  };
}
