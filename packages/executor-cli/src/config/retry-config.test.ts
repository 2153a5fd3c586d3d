import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProviderFactory } from '../provider/create-provider.js';
import { ConfigError } from './config-error.js';
import { loadConfig } from './load-config.js';
import { parseConfig } from './parse-config.js';
import { retryOverrides } from './retry-overrides.js';
import { resolveSessionSettings } from './session-settings.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-retry-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function problemOf(text: string): string {
  try {
    parseConfig(text, 'config.toml');
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the [retry] table', () => {
  it('reads max_retries, initial_delay_ms, max_delay_ms and max_retry_after_ms', () => {
    const text = '[retry]\nmax_retries = 2\ninitial_delay_ms = 250\nmax_delay_ms = 8000\nmax_retry_after_ms = 20000\n';
    const config = parseConfig(text, 'c.toml');
    expect(config.retry).toEqual({
      max_retries: 2,
      initial_delay_ms: 250,
      max_delay_ms: 8000,
      max_retry_after_ms: 20_000,
    });
    expect(retryOverrides(config.retry)).toEqual({
      maxRetries: 2,
      initialDelayMs: 250,
      maxDelayMs: 8000,
      maxRetryAfterMs: 20_000,
    });
  });

  it.each([
    ['max_retries = -1', 'key "retry.max_retries" must be 0 (never retry) or more (got -1)'],
    ['max_retries = 1.5', 'key "retry.max_retries" must be a whole number of retries (got 1.5)'],
    ['max_retries = 50', 'key "retry.max_retries" must be at most 20'],
    ['initial_delay_ms = -5', 'key "retry.initial_delay_ms" must be 0 or more milliseconds (got -5)'],
    ['max_delay_ms = "30s"', 'key "retry.max_delay_ms" must be a whole number of milliseconds (e.g. 30000)'],
    [
      'initial_delay_ms = 5000\nmax_delay_ms = 1000',
      'key "retry.max_delay_ms" must not be below initial_delay_ms (got 1000)',
    ],
    ['max_retry = 3', 'is not a known setting'],
  ])('refuses %s, saying what it takes', (line, problem) => {
    const message = problemOf(`[retry]\n${line}\n`);
    expect(message).toContain('config.toml');
    expect(message).toContain(problem);
  });

  it("leaves the providers' default alone when the table is absent or empty", () => {
    expect(retryOverrides(undefined)).toBeUndefined();
    expect(retryOverrides({})).toBeUndefined();
  });

  it("merges a project's keys over the user's, key by key, into the session's retry settings", async () => {
    const userFile = join(root, 'user.toml');
    const project = join(root, 'project');
    mkdirSync(join(project, '.agentloop'), { recursive: true });
    writeFileSync(userFile, 'provider = "anthropic"\n[retry]\nmax_retries = 1\nmax_delay_ms = 9000\n');
    writeFileSync(join(project, '.agentloop', 'config.toml'), '[retry]\nmax_retries = 6\n');
    const config = await loadConfig({ cwd: project, userFile });
    expect(config.retry).toEqual({ max_retries: 6, max_delay_ms: 9000 });
    const settings = await resolveSessionSettings(
      {},
      { cwd: project, userConfigFile: userFile, environment: { ANTHROPIC_API_KEY: 'sk-ant-test' } },
    );
    expect(settings.retry).toEqual({ maxRetries: 6, maxDelayMs: 9000 });
  });
});

describe('the providers the CLI builds follow the [retry] settings', () => {
  let server: Server;
  let requests = 0;
  let baseURL: string;
  beforeEach(async () => {
    requests = 0;
    server = createServer((_request, response) => {
      requests += 1;
      response.writeHead(503, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"overloaded","type":"server_error"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  async function callOnce(retry: Parameters<typeof createProviderFactory>[0]): Promise<void> {
    const provider = await createProviderFactory(retry)({ name: 'local', type: 'openai', model: 'm', baseURL });
    const signal = new AbortController().signal;
    const request = { systemPrompt: '', messages: [], tools: [], toolChoice: 'auto' as const, signal };
    await expect(async () => {
      for await (const _chunk of provider.stream(request));
    }).rejects.toMatchObject({ statusCode: 503 });
  }

  it('makes one attempt with max_retries = 0', async () => {
    await callOnce({ retry: { maxRetries: 0 } });
    expect(requests).toBe(1);
  });

  it('makes 1 + max_retries attempts, with the configured (here zero) backoff', async () => {
    await callOnce({ retry: { maxRetries: 2, initialDelayMs: 0, maxDelayMs: 0 } });
    expect(requests).toBe(3);
  });
});
