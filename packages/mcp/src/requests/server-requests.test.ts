import type { ElicitationRequest, SamplingRequest } from '@agentloop/tools';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectMcpServers, type McpServers } from '../mcp-servers.js';
import { callTool, ToolRegistry } from '../test-support/call-tool.js';
import { everythingServer, isAlive, tempDirectory } from '../test-support/servers.js';
import { CallsInFlight } from './calls-in-flight.js';
import { directoryRoot } from './mcp-root.js';
import { serveServerRequests } from './serve-server-requests.js';

// The reference "everything" server's tools that make server-initiated requests, called outside an agent
// with a ToolContext that does or does not offer `elicit` and `sample`.
let mcp: McpServers | undefined;
afterEach(async () => {
  const pids = mcp?.status().flatMap((status) => (status.pid ? [status.pid] : [])) ?? [];
  await mcp?.close();
  mcp = undefined;
  expect(pids.filter(isAlive)).toEqual([]);
});

async function connect(roots?: Parameters<typeof connectMcpServers>[1]) {
  mcp = await connectMcpServers({ everything: everythingServer() }, roots);
  const registry = new ToolRegistry();
  mcp.attach(registry);
  return registry;
}

describe('elicitation', () => {
  it('asks through the call’s elicit, with the server’s name, message and form, and returns the answer', async () => {
    const registry = await connect();
    const asked: ElicitationRequest[] = [];
    const outcome = await callTool(
      registry,
      'everything__trigger-elicitation-request',
      {},
      {
        context: {
          elicit: async (request) => {
            asked.push(request);
            return { action: 'accept', content: { name: 'Ada Lovelace', check: true, integer: 7 } };
          },
        },
      },
    );
    expect(asked).toHaveLength(1);
    const [request] = asked;
    expect(request?.mode).toBe('form');
    expect(request?.server).toBe('everything');
    expect(request?.message).toBe('Please provide inputs for the following fields:');
    expect(request?.mode === 'form' && request.schema.required).toEqual(['name']);
    expect(outcome.content).toContain('- Name: Ada Lovelace');
    expect(outcome.content).toContain('- Favorite Integer: 7');
  });

  it('lets the user take longer than the call’s timeout to answer', async () => {
    mcp = await connectMcpServers({ everything: { ...everythingServer(), toolTimeoutMs: 1_000 } });
    const registry = new ToolRegistry();
    mcp.attach(registry);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      let asked: () => void = () => {};
      const waiting = new Promise<void>((resolve) => {
        asked = resolve;
      });
      const call = callTool(
        registry,
        'everything__trigger-elicitation-request',
        {},
        {
          timeoutMs: 1_000,
          context: {
            elicit: () => {
              asked();
              // The user answers after 5 s of the call's 1 s.
              return new Promise((resolve) => setTimeout(() => resolve({ action: 'decline' }), 5_000));
            },
          },
        },
      );
      await waiting;
      await vi.advanceTimersByTimeAsync(5_000);
      vi.useRealTimers();
      const outcome = await call;
      expect(outcome.status).toBe('ok');
      expect(outcome.content).toContain('User declined to provide the requested information');
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes a decline and a cancel on to the server', async () => {
    const registry = await connect();
    const declined = await callTool(
      registry,
      'everything__trigger-elicitation-request',
      {},
      { context: { elicit: async () => ({ action: 'decline' }) } },
    );
    expect(declined.content).toContain('User declined to provide the requested information');
    const cancelled = await callTool(
      registry,
      'everything__trigger-elicitation-request',
      {},
      { context: { elicit: async () => ({ action: 'cancel' }) } },
    );
    expect(cancelled.content).toContain('User cancelled the elicitation dialog');
  });

  it('declines for a call made outside an agent (no elicit in its context)', async () => {
    const registry = await connect();
    const outcome = await callTool(registry, 'everything__trigger-elicitation-request');
    expect(outcome.content).toContain('User declined to provide the requested information');
  });

  it('asks to open a URL in url mode, and answers accept without content', async () => {
    const registry = await connect();
    const asked: ElicitationRequest[] = [];
    const outcome = await callTool(
      registry,
      'everything__trigger-url-elicitation',
      { url: 'https://example.com/authorize', message: 'Sign in to continue' },
      {
        context: {
          elicit: async (request) => {
            asked.push(request);
            return { action: 'accept', content: { ignored: 'x' } };
          },
        },
      },
    );
    expect(asked.map((request) => request.mode === 'url' && [request.url, request.message])).toEqual([
      ['https://example.com/authorize', 'Sign in to continue'],
    ]);
    expect(outcome.status).toBe('ok');
    expect(outcome.content).not.toContain('ignored');
  });
});

describe('sampling', () => {
  it('asks through the call’s sample, with the messages, system prompt and maxTokens, and returns its text', async () => {
    const registry = await connect();
    const asked: SamplingRequest[] = [];
    const outcome = await callTool(
      registry,
      'everything__trigger-sampling-request',
      { prompt: 'a haiku', maxTokens: 42 },
      {
        context: {
          sample: async (request) => {
            asked.push(request);
            return { text: 'Autumn moonlight', model: 'scripted-model', stopReason: 'endTurn' };
          },
        },
      },
    );
    expect(asked).toHaveLength(1);
    const { signal: _signal, ...request } = asked[0] as SamplingRequest;
    expect(request).toEqual({
      server: 'everything',
      messages: [{ role: 'user', text: 'Resource trigger-sampling-request context: a haiku' }],
      systemPrompt: 'You are a helpful test server.',
      maxTokens: 42,
      temperature: 0.7,
    });
    expect(outcome.content).toContain('"text": "Autumn moonlight"');
    expect(outcome.content).toContain('"model": "scripted-model"');
  });

  it('refuses with the reason when sample rejects (a declined approval)', async () => {
    const registry = await connect();
    const outcome = await callTool(
      registry,
      'everything__trigger-sampling-request',
      { prompt: 'x' },
      {
        context: {
          sample: async () => {
            throw Object.assign(new Error('The user declined the sampling request.'), { code: 'sampling_declined' });
          },
        },
      },
    );
    expect(outcome.status).toBe('error');
    expect(outcome.content).toContain('The user declined the sampling request.');
  });

  it('refuses for a call made outside an agent, saying why', async () => {
    const registry = await connect();
    const outcome = await callTool(registry, 'everything__trigger-sampling-request', { prompt: 'x' });
    expect(outcome.status).toBe('error');
    expect(outcome.content).toContain('does not run inside an agent');
  });
});

describe('a refused sampling request, as the server sees it', () => {
  type SamplingHandler = (request: unknown, extra: { signal: AbortSignal }) => Promise<unknown>;

  // The error the server receives is what the handler throws; the reference server folds it into its tool's
  // text, so the JSON-RPC code is read at the handler itself.
  async function refusal(thrown: unknown): Promise<McpError> {
    let handler: SamplingHandler | undefined;
    const client = {
      registerCapabilities: () => {},
      setRequestHandler: (schema: unknown, registered: SamplingHandler) => {
        if (schema === CreateMessageRequestSchema) handler = registered;
      },
    } as unknown as Client;
    const calls = new CallsInFlight();
    calls.enter({
      sample: async () => {
        throw thrown;
      },
    } as unknown as Parameters<CallsInFlight['enter']>[0]);
    serveServerRequests(client, { server: 'tickets', calls });
    const request = {
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 10 },
    };
    const error = await handler?.(request, { signal: new AbortController().signal }).then(
      () => undefined,
      (rejected: unknown) => rejected,
    );
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }

  it('answers a run that cannot ask the user (sampling_approval_unsupported) as user-rejected, with core’s reason', async () => {
    const reason = 'summarize asked for a model completion (sampling) that needs the user’s approval.';
    const error = await refusal(Object.assign(new Error(reason), { code: 'sampling_approval_unsupported' }));
    expect(error.code).toBe(-1);
    expect(error.message).toBe(`MCP error -1: ${reason}`);
  });

  it('answers a declined request (sampling_declined) as user-rejected', async () => {
    const error = await refusal(Object.assign(new Error('The user declined.'), { code: 'sampling_declined' }));
    expect(error.code).toBe(-1);
    expect(error.message).toBe('MCP error -1: The user declined.');
  });

  it('answers any other failure as an internal error', async () => {
    const error = await refusal(Object.assign(new Error('The provider is down.'), { code: 'provider_error' }));
    expect(error.code).toBe(ErrorCode.InternalError);
    expect(error.message).toBe('MCP error -32603: The provider is down.');
  });
});

describe('roots', () => {
  it('offers the roots it was given and tells the server when they change', async () => {
    const first = tempDirectory();
    const second = tempDirectory();
    try {
      const registry = await connect({ roots: [directoryRoot(first.directory, 'workspace')] });
      const before = await callTool(registry, 'everything__get-roots-list');
      expect(before.content).toContain(`URI: ${directoryRoot(first.directory).uri}`);
      expect(before.content).toContain('1. workspace');
      await mcp?.setRoots([directoryRoot(first.directory), directoryRoot(second.directory, 'docs')]);
      // The server asks for the roots again when notified; its next call shows the new list.
      let after = await callTool(registry, 'everything__get-roots-list');
      for (let attempt = 0; attempt < 50 && !after.content.includes('2 total'); attempt++) {
        after = await callTool(registry, 'everything__get-roots-list');
      }
      expect(after.content).toContain('Current MCP Roots (2 total)');
      expect(after.content).toContain(`URI: ${directoryRoot(second.directory).uri}`);
    } finally {
      first.remove();
      second.remove();
    }
  });

  it('declares no roots capability without roots, so the server offers no roots tool', async () => {
    const registry = await connect();
    expect(registry.has('everything__get-roots-list')).toBe(false);
    expect(registry.has('everything__trigger-elicitation-request')).toBe(true);
    expect(registry.has('everything__trigger-sampling-request')).toBe(true);
  });

  it('refuses a root that is not a file:// URI, saying how to make one', async () => {
    await expect(connectMcpServers({}, { roots: [{ uri: '/tmp' }] })).rejects.toThrow(
      /must be a file:\/\/ URI, got "\/tmp"; make one with directoryRoot/,
    );
  });
});
