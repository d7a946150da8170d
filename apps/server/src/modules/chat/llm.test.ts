import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { testConfig } from '../../lib/config';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { FAQ_ANSWERS } from './faq-answers';
import { createLlm, keepsFacts } from './llm';

/*
 * The optional model, tested against a local stub of the OpenAI-compatible API on 127.0.0.1 only. Each
 * request's behaviour is chosen by the model name the client sends.
 */

let stub: Server;
let baseUrl: string;
const seen: Array<{ auth: string | undefined; body: { model: string; messages: Array<{ content: string }> } }> = [];

function answer(res: ServerResponse, content: string) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  const body = JSON.parse(raw);
  seen.push({ auth: req.headers.authorization, body });
  const text: string = body.messages.at(-1).content;
  switch (body.model) {
    case 'echo-friendly':
      return answer(res, `오굿이가 알려줄게! ${text}`);
    case 'drops-numbers':
      return answer(res, '포인트는 여러 방법으로 모을 수 있어!');
    case 'broken':
      res.writeHead(500);
      return res.end('boom');
    case 'garbage':
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"choices": "nope"');
    case 'slow':
      // Never answers within the client's timeout; the socket is closed when the test ends.
      return;
  }
}

beforeAll(async () => {
  stub = createServer((req, res) => void handle(req, res));
  stub.listen(0, '127.0.0.1');
  await once(stub, 'listening');
  baseUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  stub.closeAllConnections();
  stub.close();
});

describe('createLlm', () => {
  it('uses the rephrased text and sends the key and the model', async () => {
    const llm = createLlm({ baseUrl, apiKey: 'sk-test', model: 'echo-friendly', timeoutMs: 2_000 });
    expect(await llm.rephrase('하루 최대 100P야.')).toBe('오굿이가 알려줄게! 하루 최대 100P야.');
    expect(seen.at(-1)?.auth).toBe('Bearer sk-test');
    expect(seen.at(-1)?.body.model).toBe('echo-friendly');
  });

  it.each(['drops-numbers', 'broken', 'garbage'])('falls back on %s', async (model) => {
    const llm = createLlm({ baseUrl, model, timeoutMs: 2_000 });
    expect(await llm.rephrase(FAQ_ANSWERS.포인트)).toBeNull();
  });

  it('gives up at the timeout', async () => {
    const llm = createLlm({ baseUrl, model: 'slow', timeoutMs: 300 });
    const started = performance.now();
    expect(await llm.rephrase('안녕')).toBeNull();
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('never waits longer than 5 s, whatever is configured', async () => {
    const llm = createLlm({ baseUrl: 'http://127.0.0.1:9', model: 'x', timeoutMs: 60_000 });
    expect(await llm.rephrase('안녕')).toBeNull();
  });

  it('keepsFacts demands every number of the rule text', () => {
    expect(keepsFacts('월 10만 원, 15일', '한도는 월 10만 원이고 15일에 내')).toBe(true);
    expect(keepsFacts('월 10만 원, 15일', '한도는 넉넉해')).toBe(false);
  });
});

describe('POST /chat with the model configured', () => {
  let h: Harness;
  afterAll(async () => h?.close());

  it('rephrases through the stub, and answers with the rule text when the model fails', {
    timeout: 90_000,
  }, async () => {
    h = await createHarness({ config: { CHAT_LLM_BASE_URL: baseUrl, CHAT_LLM_MODEL: 'echo-friendly' } });
    const { token } = await h.signUp();
    const res = await h.app.inject({
      method: 'POST',
      url: '/chat',
      headers: bearer(token),
      payload: { inputMessage: '포인트 어떻게 모아?', flow: 'init' },
    });
    expect(res.json().data.message).toBe(`오굿이가 알려줄게! ${FAQ_ANSWERS.포인트}`);

    // The same database behind a second app whose model never answers in time.
    const slowApp = await buildApp({
      config: testConfig({ CHAT_LLM_BASE_URL: baseUrl, CHAT_LLM_MODEL: 'slow', CHAT_LLM_TIMEOUT_MS: 300 }),
      database: h.database,
      clock: h.clock,
      jwtSecret: 'test-secret-test-secret-test-secret-1234',
    });
    const slow = await slowApp.inject({
      method: 'POST',
      url: '/chat',
      headers: bearer(token),
      payload: { inputMessage: '포인트 어떻게 모아?', flow: 'init' },
    });
    await slowApp.close();
    expect(slow.statusCode).toBe(200);
    expect(slow.json().data.message).toBe(FAQ_ANSWERS.포인트);
  });
});
