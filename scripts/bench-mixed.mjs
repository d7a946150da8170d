// The mixed-load model of `npm run bench` (docs/performance.md "Mixed load"): virtual users of several
// kinds, each with think time between its calls, added in a ramp. Per step and per call type it records
// req/s, p50, p99 and errors, the anonymous feed's and search's cache hit rates and how busy the server's event loop was
// (both from /metrics), and how busy the machine was and how much of its CPU the hypervisor took (/proc/stat);
// the knee is the largest number of concurrent users at which every call type's p99 is within its own budget
// (`budgetOf`) with no errors.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';

/** Shares of the virtual users by kind (BENCH_MIX="anonymous=55,viewer=30,…" overrides; need not sum to 100). */
export const DEFAULT_MIX = { anonymous: 55, viewer: 30, searcher: 7, chatter: 4, payer: 3, uploader: 1 };
/** A read's p99 budget, and every call's that commits nothing the customer's money depends on. */
export const READ_BUDGET_MS = 50;
/** A money write waits for its durable commit (a flush of the write-ahead log): twice a read's budget. */
export const MONEY_WRITE_BUDGET_MS = 100;
/** Calls that move money or points and commit durably (a chat turn, a view or a reaction does not). */
const MONEY_WRITES = new Set(['merchant request', 'validate', 'final', 'watch claim']);
/**
 * An upload answers once its bytes are on disk and its row committed: a money write's budget plus its bytes
 * through the parser and onto the disk at 20 MB/s, a shared disk's floor (ADR 0244).
 */
export const UPLOAD_MS_PER_MB = 50;

/** A call type's p99 budget in ms; an upload's by `uploadBytes`, the size of the uploads sent. */
export function budgetOf(type, uploadBytes = 0) {
  if (type === 'upload') return MONEY_WRITE_BUDGET_MS + Math.round((uploadBytes / 2 ** 20) * UPLOAD_MS_PER_MB);
  return MONEY_WRITES.has(type) ? MONEY_WRITE_BUDGET_MS : READ_BUDGET_MS;
}

export function mixFromEnv(text = process.env.BENCH_MIX) {
  if (!text) return { ...DEFAULT_MIX };
  const mix = Object.fromEntries(Object.keys(DEFAULT_MIX).map((kind) => [kind, 0]));
  for (const part of text.split(',')) {
    const [kind, share] = part.split('=');
    if (!(kind in mix) || !(Number(share) >= 0)) throw new Error(`BENCH_MIX: bad part "${part}"`);
    mix[kind] = Number(share);
  }
  return mix;
}

/** Kinds in proportion: user i gets the kind whose cumulative share first exceeds i's place in a cycle of 100. */
const SIGNED_IN = new Set(['viewer', 'chatter', 'uploader']);

/** How many accounts a ramp up to `maxUsers` needs: fixture customers signed in, and fresh payers. */
export function accountsNeeded(maxUsers, mix) {
  const kinds = kindsFor(maxUsers, mix);
  return {
    signedIn: kinds.filter((k) => SIGNED_IN.has(k)).length,
    payers: kinds.filter((k) => k === 'payer').length,
  };
}

/** Each user's own token (none for anonymous users and searchers). */
function accountsFor(kinds, { viewers, payers }) {
  let signedIn = 0;
  let paying = 0;
  return kinds.map((kind) => {
    if (SIGNED_IN.has(kind)) return viewers[signedIn++];
    if (kind === 'payer') return payers[paying++];
    return null;
  });
}

function kindsFor(count, mix) {
  const total = Object.values(mix).reduce((a, b) => a + b, 0);
  const kinds = [];
  const owed = Object.fromEntries(Object.keys(mix).map((k) => [k, 0]));
  for (let i = 0; i < count; i++) {
    // Largest remainder: the kind furthest behind its share goes next, so every prefix keeps the proportions.
    for (const k of Object.keys(mix)) owed[k] += mix[k] / total;
    const next = Object.keys(owed).reduce((a, b) => (owed[b] > owed[a] ? b : a));
    owed[next] -= 1;
    kinds.push(next);
  }
  return kinds;
}

// node:http on kept-alive sockets, not fetch: the model shares the machine with the server, and fetch cost
// the driver 3-4x the CPU per call (a third of a core at 200 req/s), which both stole the server's cores
// and delayed the driver's own reading of answers, counted as the server's latency.
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/**
 * One request; resolves with the status, and the body as text when `read` (else the body is drained unread:
 * decoding answers nobody looks at cost the driver a tenth of its CPU, taken from the server's two cores).
 */
function send(url, method, headers, body, read) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      if (read) res.on('data', (chunk) => chunks.push(chunk));
      else res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: read ? Buffer.concat(chunks).toString('utf8') : '' }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A multipart form's bytes and content type (with its boundary), as fetch would send them. */
async function formBytes(form) {
  const request = new Request('http://form.invalid/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), type: request.headers.get('content-type') };
}

/**
 * The machine's CPU time so far from /proc/stat (Linux; null elsewhere), in ticks summed over every CPU:
 * all of it, the busy part, and the part the hypervisor gave to other guests (steal). The bench shares the
 * machine with the server and its database, and on a VM stolen time shows up as everyone's latency.
 */
function machineTicks() {
  if (!existsSync('/proc/stat')) return null;
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { all: busy + idle + iowait, busy, steal };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : 0;
/** The popular searches, asked again and again by different people. */
const SEARCH_WORDS = ['벤치', '오늘', '#벤치7', '설명', 'ㅂㅊ', '영상 12', '벤치러'];
/**
 * One search's words: with probability `tail` one of the long tail, asked once (a short's title number or a
 * creator's name, found among the fixture's 100,000 or not at all), else a popular one.
 */
function searchWords(tail) {
  if (Math.random() >= tail) return pick(SEARCH_WORDS);
  const n = 1 + Math.floor(Math.random() * 100_000);
  return Math.random() < 0.5 ? `영상 ${n}` : `벤치러${n}`;
}
const CHAT_LINES = ['포인트 어떻게 모아요?', '이번 달 결제 금액 알려줘', '등급 기준이 뭐야', '안녕'];

/**
 * Runs the ramp against `base`. `setup` gives signed-in tokens: `viewers` (fixture customers) and `payers`
 * (fresh customers), the merchant key, and a function reading the public caches' counters and the event loop's
 * busy time (`{ publicFeed: { hits, misses }, publicSearch: { hits, misses }, loopBusySeconds }`).
 * `searchTail` is the share of searches that are one-off queries, which no cache has seen. When the last of
 * `steps` is within the limit, the ramp goes on by the last step's increment up to `upTo` users, until a step
 * is not: a ramp whose every step passed has not found the knee, only a floor under it. `viewers` and
 * `payers` must cover `upTo` (`accountsNeeded`).
 */
export async function mixedLoad({
  base,
  viewers,
  payers,
  merchantKey,
  serverCounters,
  thinkMs,
  steps,
  stepSeconds,
  warmupSeconds = 0,
  arrivalSeconds = 0,
  mix,
  searchTail = 0.5,
  upTo = steps.at(-1),
}) {
  const samples = []; // { step, type, ms, ok }
  /** Calls under way, by the step they started in: a step is judged once its last call has answered. */
  const pending = new Map();
  let step = -1;
  let stopping = false;
  const randomIp = () => `10.${(Math.random() * 255) | 0}.${(Math.random() * 255) | 0}.${(Math.random() * 255) | 0}`;

  /** One call, timed; its parsed answer when `read` (the user's next step needs it), else null. */
  async function call(type, path, { method = 'GET', token, body, headers = {}, form, read = false } = {}) {
    // The body is made before the clock starts: encoding an upload's form is the client's work.
    const sent = form
      ? await formBytes(form)
      : { body: body ? JSON.stringify(body) : undefined, type: 'application/json' };
    const started = performance.now();
    const startedIn = step;
    let ok = false;
    let json = null;
    let answered;
    const settled = new Promise((resolve) => {
      answered = resolve;
    });
    const under = pending.get(startedIn) ?? new Set();
    pending.set(startedIn, under.add(settled));
    try {
      const res = await send(
        `${base}${path}`,
        method,
        {
          ...(sent.body !== undefined ? { 'content-type': sent.type } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          'x-forwarded-for': randomIp(),
          ...headers,
        },
        sent.body,
        read,
      );
      ok = res.status >= 200 && res.status < 300;
      json = res.text ? JSON.parse(res.text) : null;
    } catch {
      ok = false;
    }
    samples.push({ step: startedIn, type, ms: performance.now() - started, ok });
    under.delete(settled);
    answered();
    return json;
  }
  const think = () => sleep(thinkMs * (0.5 + Math.random()));

  // One short at a time, a feed page every 10 shorts; comments opened on one short in ten. A visit starts at
  // the top of the feed and, after each page, ends with probability 0.3 (3.3 pages on average): the next
  // visit starts at page 1 again.
  async function swipe(token, onShort) {
    let page = 1;
    while (!stopping) {
      const feed = token
        ? await call('feed (signed in)', `/api/shorts/feeds?page=${page}&size=10`, { token, read: true })
        : await call('feed (anonymous)', `/api/public/shorts/feeds?page=${page}&size=10`, { read: true });
      const items = feed?.data ?? [];
      if (items.length === 0) {
        // Past the last page (a small data set): back to the top after a pause, never a tight loop.
        page = 1;
        await think();
        continue;
      }
      for (const item of items) {
        if (stopping) return;
        if (Math.random() < 0.1) {
          await call(
            token ? 'comments (signed in)' : 'comments (anonymous)',
            `/api/public/shorts/feeds/${item.shortsId}/comments`,
            { token },
          );
        }
        await onShort?.(item);
        await think();
      }
      page = page >= 50 || Math.random() < 0.3 ? 1 : page + 1;
    }
  }

  const users = {
    anonymous: () => swipe(null),
    viewer: (token) => {
      const views = [];
      let paidUntil = 0;
      return swipe(token, async (item) => {
        const opened = await call('view', `/api/shorts/${item.shortsId}/views`, { method: 'POST', token, read: true });
        if (opened?.data?.viewId) views.push({ id: item.shortsId, at: performance.now() });
        // A claim for a view watched ≥ 5.3 s (half the fixture's 10 s shorts) that does not overlap a paid one.
        const now = performance.now();
        const due = views.find((v) => v.at >= paidUntil && now - v.at >= 5_300);
        if (due && Math.random() < 0.5) {
          await call('watch claim', '/api/shorts/point/earn', {
            method: 'POST',
            token,
            body: { shortsId: due.id, watchedSeconds: 5 },
          });
          paidUntil = due.at + 5_000;
          views.splice(0, views.indexOf(due) + 1);
        }
        if (Math.random() < 0.05) {
          await call('reaction', `/api/shorts/feeds/${item.shortsId}/reactions`, {
            method: 'POST',
            token,
            body: { shortsId: item.shortsId, type: Math.random() < 0.85 ? 'like' : 'dislike' },
          });
        }
        if (Math.random() < 0.02) {
          await call('comment', `/api/shorts/feeds/${item.shortsId}/comments`, {
            method: 'POST',
            token,
            body: { content: '벤치 혼합 댓글', gno: 0 },
          });
        }
        if (Math.random() < 0.01 && item.subscriptionStatus === 'NOT_SUBSCRIBED') {
          await call('subscribe', `/api/shorts/subscribe/${item.customerId}`, { method: 'POST', token });
        }
      });
    },
    searcher: async () => {
      while (!stopping) {
        await call('search', `/api/public/shorts/search?q=${encodeURIComponent(searchWords(searchTail))}&limit=8`);
        await think();
        await think();
      }
    },
    chatter: async (token) => {
      let sessionId = null;
      while (!stopping) {
        const reply = await call('chat turn', '/chat', {
          method: 'POST',
          token,
          body: { sessionId, inputMessage: pick(CHAT_LINES), flow: 'init' },
          read: true,
        });
        sessionId = reply?.data?.sessionId ?? sessionId;
        await think();
        await think();
      }
    },
    // A purchase (merchant request → validate → final), then the pages a customer checks after paying.
    payer: async (token, i) => {
      while (!stopping) {
        const created = await call('merchant request', '/api/merchant/payment-requests', {
          method: 'POST',
          headers: { 'x-merchant-key': merchantKey },
          body: { orderId: `mix-${Date.now()}-${i}-${Math.random()}`, requestName: '혼합 상품', totalPrice: 100 },
          read: true,
        });
        await think();
        if (created?.pinCode) {
          await call('validate', '/api/payment/validate', {
            method: 'POST',
            token,
            body: { codeType: 'pincode', value: created.pinCode },
          });
          await think();
          await call('final', `/api/payment/final?point=0&requestId=${created.requestId}`, { method: 'POST', token });
        }
        for (const [type, path] of [
          ['payment info', '/api/payment/info'],
          ['mypage', '/api/mypage'],
          ['payment history', '/api/payment/history'],
        ]) {
          await think();
          await call(type, path, { token });
        }
        for (let k = 0; k < 5 && !stopping; k++) await think();
      }
    },
    uploader: async (token) => {
      const video = uploadFile;
      if (!video) return;
      while (!stopping) {
        const form = new FormData();
        form.set('title', '혼합 업로드');
        form.set('content', '벤치 업로드');
        form.set('video', new Blob([video]), 'clip.mp4');
        await call('upload', '/api/upload', { method: 'POST', token, form });
        for (let k = 0; k < 30 && !stopping; k++) await think();
      }
    },
  };

  const uploadFile = readUploadFile();
  const maxUsers = Math.max(steps.at(-1), upTo);
  const kinds = kindsFor(maxUsers, mix);
  // Every signed-in user is a customer of its own: the server keeps one customer's watch claims from
  // overlapping in time, so two users sharing an account would refuse each other's claims.
  const tokens = accountsFor(kinds, { viewers, payers });
  const running = [];
  const perStep = [];
  // A warm-up at the first step's users: a server that has just started reads every page, plan and
  // connection for the first time. It is reported as its own row and never counts as the knee.
  const plan = [
    ...(warmupSeconds > 0 ? [{ users: steps[0], seconds: warmupSeconds, warmup: true }] : []),
    ...steps.map((users) => ({ users, seconds: stepSeconds, warmup: false })),
  ];
  const increment = steps.length > 1 ? steps.at(-1) - steps.at(-2) : 0;

  /** A step's figures from the calls that started in it, over its duration. */
  function judge(st, s) {
    const byType = new Map();
    for (const x of samples) {
      if (x.step !== s) continue;
      const list = byType.get(x.type) ?? [];
      list.push(x);
      byType.set(x.type, list);
    }
    const types = [...byType.entries()]
      .map(([type, list]) => {
        const ms = list.map((x) => x.ms).sort((a, b) => a - b);
        const budget = budgetOf(type, uploadFile?.length);
        return {
          type,
          budget,
          rps: list.length / st.seconds,
          p50: percentile(ms, 0.5),
          p99: percentile(ms, 0.99),
          errors: list.filter((x) => !x.ok).length,
          slow: list.filter((x) => x.ms > budget).length,
          count: list.length,
        };
      })
      .sort((a, b) => b.count - a.count);
    const total = types.reduce((sum, t) => sum + t.rps, 0);
    const within = withinBudgets(types);
    // A rare call's "p99" is its slowest call or two: the share of all calls over budget tells a step lost
    // to one slow call from a step the server could not carry.
    const calls = types.reduce((sum, t) => sum + t.count, 0);
    const slow = types.reduce((sum, t) => sum + t.slow, 0);
    return { ...st, types, total, within, slowShare: calls > 0 ? slow / calls : 0, slowCalls: slow };
  }

  for (let s = 0; s < plan.length; s++) {
    const { users: target, warmup } = plan[s];
    // The step's new users arrive spread over `arrivalSeconds`, as independent people do (started in one
    // millisecond, their first calls would be a burst no audience sends). Calls started while they arrive
    // count toward no step: a step measures its number of users, all present.
    while (running.length < target) {
      const i = running.length;
      running.push(
        sleep(Math.random() * arrivalSeconds * 1000)
          .then(() => (stopping ? undefined : users[kinds[i]](tokens[i], i)))
          .catch(() => undefined),
      );
    }
    await sleep(arrivalSeconds * 1000);
    step = s;
    const before = await serverCounters();
    const machineBefore = machineTicks();
    const began = performance.now();
    await sleep(plan[s].seconds * 1000);
    const seconds = (performance.now() - began) / 1000;
    step = -1;
    const machineAfter = machineTicks();
    const after = await serverCounters();
    const rateOf = (cache) => {
      const hits = after[cache].hits - before[cache].hits;
      const misses = after[cache].misses - before[cache].misses;
      return hits + misses > 0 ? hits / (hits + misses) : null;
    };
    perStep.push({
      users: target,
      warmup,
      seconds,
      hitRate: rateOf('publicFeed'),
      searchHitRate: rateOf('publicSearch'),
      // The share of the step the server's one event loop was running code: every request's code waits there.
      loopBusy: (after.loopBusySeconds - before.loopBusySeconds) / seconds,
      machine: machineBefore && machineAfter ? machineShares(machineBefore, machineAfter) : null,
      kinds: countKinds(kinds.slice(0, target)),
    });
    const label = warmup ? 'warm-up' : 'done';
    console.log(`  mixed: ${target} users ${label} (${samples.filter((x) => x.step === s).length} calls)`);
    // The last step so far passed, once its last calls answered: the knee is further up, so the ramp goes on.
    const next = target + increment;
    if (s === plan.length - 1 && !warmup && increment > 0 && next <= maxUsers) {
      await Promise.all(pending.get(s) ?? []);
      if (judge(perStep[s], s).within) plan.push({ users: next, seconds: stepSeconds, warmup: false });
    }
  }
  stopping = true;
  await Promise.race([Promise.all(running), sleep(15_000)]);

  return perStep.map(judge);
}

/** Shares of the machine's CPU time between two readings: busy (all processes, stolen included), stolen. */
function machineShares(before, after) {
  const all = after.all - before.all;
  return all > 0 ? { busy: (after.busy - before.busy) / all, stolen: (after.steal - before.steal) / all } : null;
}

function countKinds(kinds) {
  const counts = {};
  for (const k of kinds) counts[k] = (counts[k] ?? 0) + 1;
  return counts;
}

/** A small MP4 for the few uploads: BENCH_UPLOAD_FILE, else the first demo short of the data directory. */
function readUploadFile() {
  const given = process.env.BENCH_UPLOAD_FILE;
  if (given && existsSync(given)) return readFileSync(given);
  const dir = process.env.BENCH_MEDIA_DIR;
  if (!dir || !existsSync(dir)) return null;
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop();
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.name.endsWith('.mp4')) return readFileSync(path);
    }
  }
  return null;
}

/** The knee: the last step (users) at which every call type was within its budget with no errors. */
export function kneeOf(results) {
  let knee = null;
  for (const r of results) if (r.within && !r.warmup) knee = r;
  return knee;
}

const r1 = (n) => Math.round(n * 10) / 10;

/** Whether a step's call types (`{ p99, budget, errors }`) all kept their p99 within budget and failed nothing. */
export function withinBudgets(types) {
  return types.every((t) => t.p99 <= t.budget && t.errors === 0);
}

/** A step's call type closest to (or furthest over) its budget: the one that sets the knee. */
export function worstOf(step) {
  return step.types.reduce((a, b) => (b.p99 / b.budget > a.p99 / a.budget ? b : a), {
    p99: 0,
    budget: READ_BUDGET_MS,
    type: '—',
  });
}

/** Every call type's p99 at a step against its budget, as one line ("final 41.2/100 ms, …"). */
export const perTypeText = (step) => step.types.map((t) => `${t.type} ${r1(t.p99)}/${t.budget} ms`).join(', ');

/** A cache's hit rate as a percentage with one decimal, or '—' when nothing was read. */
export const hitRateText = (share) => (share === null ? '—' : `${r1(share * 100)} %`);

export function printMixed(results) {
  console.log('\n### Mixed load: ramp\n');
  console.log(
    '| users | kinds | total req/s | worst p99 of its budget (call) | calls over budget | errors | public-feed hit rate | public-search hit rate | server event loop busy | machine CPU busy (stolen) | every p99 within budget, no errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const worst = worstOf(r);
    const errors = r.types.reduce((sum, t) => sum + t.errors, 0);
    const kinds = Object.entries(r.kinds)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    const percent = (share) => `${Math.round(share * 100)} %`;
    const machine = r.machine ? `${percent(r.machine.busy)} (${percent(r.machine.stolen)})` : '—';
    console.log(
      `| ${r.users}${r.warmup ? ' (warm-up)' : ''} | ${kinds} | ${r1(r.total)} | ${r1(worst.p99)} / ${worst.budget} ms (${worst.type}) | ${r.slowCalls} (${r1(r.slowShare * 100)} %) | ${errors} | ${hitRateText(r.hitRate)} | ${hitRateText(r.searchHitRate)} | ${percent(r.loopBusy)} | ${machine} | ${r.within ? 'yes' : 'no'} |`,
    );
  }
  // Every step's calls, the knee's marked: what breaks first past the knee is the next thing to fix.
  const knee = kneeOf(results);
  for (const r of results) {
    const label = r.warmup ? ' (warm-up)' : r === knee ? ' (the knee)' : '';
    console.log(`\n### Mixed load: per call type at ${r.users} users${label}\n`);
    // With the calls counted beside it: under a hundred calls, a type's p99 is its slowest call.
    console.log('| call | calls | req/s | p50 | p99 | budget | over budget | errors |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const t of r.types)
      console.log(
        `| ${t.type} | ${t.count} | ${r1(t.rps)} | ${r1(t.p50)} ms | ${r1(t.p99)} ms | ${t.budget} ms | ${t.slow} | ${t.errors} |`,
      );
  }
}
