import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { AgentloopError } from './errors/index.js';
import { runToolCall, stringifyToolResult } from './run-tool-call.js';
import type { Tool, ToolContext } from './tool.js';
import { ToolRegistry } from './tool-registry.js';

function contextWith(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    signal: new AbortController().signal,
    sessionId: 'session-1',
    workspace: '/workspace',
    toolCallId: 'call-1',
    reportProgress: () => {},
    ...overrides,
  };
}

/** A registry holding one `probe` tool with a `{ input: string }` schema and the given execute. */
function registryWith(execute: Tool['execute']): ToolRegistry {
  return new ToolRegistry([
    defineTool({ name: 'probe', description: 'Probe', parameters: z.object({ input: z.string() }), execute }),
  ]);
}

const call = (args: unknown = { input: 'x' }, toolName = 'probe') => ({
  toolCallId: 'call-1',
  toolName,
  arguments: args,
});

describe('runToolCall', () => {
  describe('a successful call', () => {
    it('gives a string result to the model as it is', async () => {
      const registry = registryWith(() => 'line one\nline two');

      expect(await runToolCall(registry, call(), contextWith())).toStrictEqual({
        status: 'ok',
        toolCallId: 'call-1',
        toolName: 'probe',
        content: 'line one\nline two',
        value: 'line one\nline two',
        arguments: { input: 'x' },
      });
    });

    it('gives an object result to the model as JSON and keeps the raw value', async () => {
      const registry = registryWith(async () => ({ files: ['a.ts', 'b.ts'], count: 2 }));

      expect(await runToolCall(registry, call(), contextWith())).toStrictEqual({
        status: 'ok',
        toolCallId: 'call-1',
        toolName: 'probe',
        content: '{"files":["a.ts","b.ts"],"count":2}',
        value: { files: ['a.ts', 'b.ts'], count: 2 },
        arguments: { input: 'x' },
      });
    });

    it('says "(no output)" when the tool returns nothing', async () => {
      const registry = registryWith(() => undefined);

      expect(await runToolCall(registry, call(), contextWith())).toMatchObject({
        status: 'ok',
        content: '(no output)',
      });
    });

    it('passes the validated arguments, not the raw ones, to execute', async () => {
      const execute = vi.fn(() => 'ok');
      const registry = new ToolRegistry([
        defineTool({
          name: 'probe',
          description: 'Probe',
          parameters: z.object({ limit: z.number().default(5) }),
          execute,
        }),
      ]);

      await runToolCall(registry, call({}), contextWith());

      expect(execute).toHaveBeenCalledWith({ limit: 5 }, expect.anything());
    });

    it('passes the context, with its reportProgress, through to the tool', async () => {
      const reportProgress = vi.fn();
      const context = contextWith({ reportProgress, toolCallId: 'call-7' });
      const registry = registryWith((_args, toolContext) => {
        toolContext.reportProgress({ message: 'halfway', fraction: 0.5 });
        return toolContext.toolCallId;
      });

      const outcome = await runToolCall(registry, call(), context);

      expect(reportProgress).toHaveBeenCalledWith({ message: 'halfway', fraction: 0.5 });
      expect(outcome).toMatchObject({ status: 'ok', content: 'call-7' });
    });

    it("passes the caller's idempotency key through to the tool", async () => {
      const registry = registryWith((_args, toolContext) => String(toolContext.idempotencyKey));

      expect(await runToolCall(registry, call(), contextWith({ idempotencyKey: 'key-1' }))).toMatchObject({
        status: 'ok',
        content: 'key-1',
      });
      expect(await runToolCall(registry, call(), contextWith())).toMatchObject({ status: 'ok', content: 'undefined' });
    });

    it('reads the idempotency key from the caller only when the tool reads it, and keeps it in a copy', async () => {
      let reads = 0;
      const caller = {
        ...contextWith(),
        get idempotencyKey() {
          reads++;
          return 'key-2';
        },
      };
      const unread = registryWith(() => 'done');
      await runToolCall(unread, call(), caller);
      expect(reads).toBe(0);
      const copying = registryWith((_args, toolContext) => ({ ...toolContext }).idempotencyKey ?? 'lost');
      expect(await runToolCall(copying, call(), caller)).toMatchObject({ status: 'ok', content: 'key-2' });
    });

    it('passes elicit and sample through to the tool, and leaves them out when the caller has none', async () => {
      const elicit = vi.fn(async () => ({ action: 'decline' }) as const);
      const sample = vi.fn(async () => ({ text: 'hi', model: 'm', stopReason: 'endTurn' }) as const);
      const registry = registryWith(async (_args, toolContext) => {
        const answer = await toolContext.elicit?.({ mode: 'url', message: 'Open', url: 'https://example.com' });
        const completion = await toolContext.sample?.({ messages: [{ role: 'user', text: 'x' }], maxTokens: 5 });
        return `${'elicit' in toolContext} ${answer?.action} ${completion?.text}`;
      });

      expect(await runToolCall(registry, call(), contextWith({ elicit, sample }))).toMatchObject({
        content: 'true decline hi',
      });
      expect(elicit).toHaveBeenCalledWith({
        mode: 'url',
        message: 'Open',
        url: 'https://example.com',
        signal: expect.any(AbortSignal),
      });
      expect(await runToolCall(registry, call(), contextWith())).toMatchObject({
        content: 'false undefined undefined',
      });
    });
  });

  describe('a call that cannot run', () => {
    it('reports an unknown tool and lists the available tools', async () => {
      const registry = registryWith(() => 'ok');

      expect(await runToolCall(registry, call({}, 'serach'), contextWith())).toStrictEqual({
        status: 'error',
        toolCallId: 'call-1',
        toolName: 'serach',
        code: 'unknown_tool',
        content: 'Unknown tool "serach". Available tools: task_completion, ask_question, converse, probe.',
      });
    });

    it('reports invalid arguments, naming the field, and does not run the tool', async () => {
      const execute = vi.fn(() => 'ok');
      const registry = registryWith(execute);

      expect(await runToolCall(registry, call({ input: 3 }), contextWith())).toStrictEqual({
        status: 'error',
        toolCallId: 'call-1',
        toolName: 'probe',
        code: 'invalid_arguments',
        content:
          'Invalid arguments for tool "probe": input: Invalid input: expected string, received number. Fix the arguments and call the tool again.',
      });
      expect(execute).not.toHaveBeenCalled();
    });

    it('does not start a tool when the run is already cancelled', async () => {
      const execute = vi.fn(() => 'ok');
      const controller = new AbortController();
      controller.abort();

      const outcome = await runToolCall(registryWith(execute), call(), contextWith({ signal: controller.signal }));

      expect(outcome).toStrictEqual({
        status: 'error',
        toolCallId: 'call-1',
        toolName: 'probe',
        code: 'cancelled',
        content: 'The tool call was cancelled before it started.',
      });
      expect(execute).not.toHaveBeenCalled();
    });
  });

  describe('a call that fails', () => {
    it('turns a thrown error into a tool_failed outcome carrying the message and the error', async () => {
      const thrown = new Error('disk full');
      const registry = registryWith(() => {
        throw thrown;
      });

      expect(await runToolCall(registry, call(), contextWith())).toStrictEqual({
        status: 'error',
        toolCallId: 'call-1',
        toolName: 'probe',
        code: 'tool_failed',
        content: 'Tool "probe" failed: disk full',
        error: thrown,
      });
    });

    it('turns a rejected promise into a tool_failed outcome', async () => {
      const registry = registryWith(async () => Promise.reject(new Error('timeout')));

      expect(await runToolCall(registry, call(), contextWith())).toMatchObject({
        status: 'error',
        code: 'tool_failed',
        content: 'Tool "probe" failed: timeout',
      });
    });

    it('includes the code of an AgentloopError thrown by the tool', async () => {
      const registry = registryWith(() => {
        throw new AgentloopError('permission denied: /etc/passwd', { code: 'permission_denied' });
      });

      expect(await runToolCall(registry, call(), contextWith())).toMatchObject({
        code: 'tool_failed',
        content: 'Tool "probe" failed [permission_denied]: permission denied: /etc/passwd',
      });
    });

    it('reports a thrown non-error value by its text', async () => {
      const registry = registryWith(() => {
        throw 'not found';
      });

      expect(await runToolCall(registry, call(), contextWith())).toMatchObject({
        code: 'tool_failed',
        content: 'Tool "probe" failed: not found',
        error: 'not found',
      });
    });
  });

  describe('cancellation while a tool runs', () => {
    it('abandons a tool that ignores its signal and reports the call as cancelled', async () => {
      const controller = new AbortController();
      let started!: () => void;
      const toolStarted = new Promise<void>((resolve) => {
        started = resolve;
      });
      const registry = registryWith(() => {
        started();
        return new Promise<never>(() => {});
      });

      const outcome = runToolCall(registry, call(), contextWith({ signal: controller.signal }));
      await toolStarted;
      controller.abort();

      expect(await outcome).toMatchObject({
        status: 'error',
        code: 'cancelled',
        content: 'The tool call was cancelled by the user.',
      });
    });

    it('reports a tool that stops on its signal as cancelled, not failed', async () => {
      const controller = new AbortController();
      let started!: () => void;
      const toolStarted = new Promise<void>((resolve) => {
        started = resolve;
      });
      const registry = registryWith(
        (_args, { signal }) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener('abort', () => reject(new Error('stopped')));
            started();
          }),
      );

      const outcome = runToolCall(registry, call(), contextWith({ signal: controller.signal }));
      await toolStarted;
      controller.abort();

      expect(await outcome).toMatchObject({
        status: 'error',
        code: 'cancelled',
        content: 'The tool call was cancelled by the user.',
      });
    });
  });
});

describe('runToolCall with hostile thrown values', () => {
  it.each([
    ['an object without a prototype', () => Object.create(null)],
    [
      'an object whose toString throws',
      () => ({
        toString() {
          throw new Error('no');
        },
      }),
    ],
  ])('reports %s as a tool failure', async (_name, make) => {
    const registry = registryWith(() => {
      throw make();
    });
    const outcome = await runToolCall(registry, call(), contextWith());
    expect(outcome).toMatchObject({
      status: 'error',
      code: 'tool_failed',
      content: 'Tool "probe" failed: a thrown value that cannot be described ([object Object])',
    });
  });

  it('reports a schema that throws a value without a prototype while validating', async () => {
    const registry = new ToolRegistry([
      defineTool({
        name: 'probe',
        description: 'Probe',
        parameters: z.object({ input: z.string() }).transform(() => {
          throw Object.create(null);
        }),
        execute: () => 'never',
      }),
    ]);
    const outcome = await runToolCall(registry, call(), contextWith());
    expect(outcome).toMatchObject({ status: 'error', code: 'tool_failed' });
    expect(outcome.content).toContain('failed while validating its arguments: a thrown value that cannot be described');
  });
});

/** Follows a promise, so that a test can tell whether it settled without waiting on it. */
function track<T>(promise: Promise<T>): { settled: boolean; value: T | undefined } {
  const state: { settled: boolean; value: T | undefined } = { settled: false, value: undefined };
  void promise.then((value) => {
    state.settled = true;
    state.value = value;
  });
  return state;
}

/** A registry holding one `probe` tool whose argument check is an async refine that never settles. */
function registryWithHangingValidation(execute: Tool['execute'], timeoutMs?: number): ToolRegistry {
  const parameters = z.object({ input: z.string() }).refine(() => new Promise<boolean>(() => {}));
  return new ToolRegistry([
    { name: 'probe', description: 'Probe', parameters, execute, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
  ]);
}

describe('runToolCall argument validation inside the timeout and the cancel', () => {
  it('times out a call whose async validation never settles, without running the tool', async () => {
    vi.useFakeTimers();
    try {
      const execute = vi.fn(() => 'ran');
      const outcome = track(
        runToolCall(registryWithHangingValidation(execute), call(), contextWith(), { timeoutMs: 2_000 }),
      );

      await vi.advanceTimersByTimeAsync(1_999);
      expect(outcome.settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);

      expect(outcome.value).toMatchObject({
        status: 'error',
        code: 'timeout',
        content:
          'Tool "probe" did not finish within 2 s and was stopped. Try a smaller piece of work, or another way to reach the goal.',
      });
      expect(execute).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['the timeout', { timeoutMs: 1_000 }, undefined, 'timeout'],
    ['a cancel', {}, 500, 'cancelled'],
  ])('never starts the tool when its validation settles after %s', async (_case, options, abortAt, code) => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const execute = vi.fn(() => 'ran');
      const parameters = z
        .object({ input: z.string() })
        .refine(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 1_500)));
      const registry = new ToolRegistry([{ name: 'probe', description: 'Probe', parameters, execute }]);
      const outcome = track(runToolCall(registry, call(), contextWith({ signal: controller.signal }), options));
      if (abortAt !== undefined) {
        await vi.advanceTimersByTimeAsync(abortAt);
        controller.abort();
      }
      await vi.advanceTimersByTimeAsync(2_000);

      expect(outcome.value).toMatchObject({ status: 'error', code });
      expect(execute).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts the time a tool spends before it first waits against its timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const execute = () => {
        // 150 ms of synchronous work, then 20 ms of waiting: 170 ms in all, past the 100 ms allowed.
        vi.advanceTimersByTime(150);
        return new Promise((resolve) => setTimeout(() => resolve('late'), 20));
      };
      const outcome = track(runToolCall(registryWith(execute), call(), contextWith(), { timeoutMs: 100 }));
      await vi.advanceTimersByTimeAsync(20);

      expect(outcome.value).toMatchObject({ status: 'error', code: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops the timeout’s clock while the user answers an elicitation, and runs it again after', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      // The user takes 10 s to answer; the tool's own work takes 40 ms before and 40 ms after: 80 ms of 100.
      const elicit = () =>
        new Promise<{ action: 'decline' }>((resolve) => setTimeout(() => resolve({ action: 'decline' }), 10_000));
      const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const execute: Tool['execute'] = async (_args, context) => {
        await wait(40);
        const answer = await context.elicit?.({ mode: 'url', message: 'Sign in', url: 'https://x.test' });
        await wait(afterMs);
        return answer?.action;
      };
      let afterMs = 40;
      const answered = track(runToolCall(registryWith(execute), call(), contextWith({ elicit }), { timeoutMs: 100 }));
      await vi.advanceTimersByTimeAsync(10_080);
      expect(answered.value).toMatchObject({ status: 'ok', content: 'decline' });

      // The clock runs again after the answer: 40 ms before and 70 ms after is past the 100 ms.
      afterMs = 70;
      const late = track(runToolCall(registryWith(execute), call(), contextWith({ elicit }), { timeoutMs: 100 }));
      await vi.advanceTimersByTimeAsync(10_100);
      expect(late.value).toMatchObject({ status: 'error', code: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends a sampling request when its call times out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const ended: unknown[] = [];
      const sample: NonNullable<ToolContext['sample']> = (request) =>
        new Promise((_resolve, reject) => {
          const { signal } = request;
          signal?.addEventListener('abort', () => {
            ended.push((signal.reason as { code?: unknown } | undefined)?.code);
            reject(signal.reason);
          });
        });
      const execute: Tool['execute'] = (_args, context) =>
        context.sample?.({ messages: [{ role: 'user', text: 'x' }], maxTokens: 5 });
      const outcome = track(runToolCall(registryWith(execute), call(), contextWith({ sample }), { timeoutMs: 100 }));
      await vi.advanceTimersByTimeAsync(100);
      expect(outcome.value).toMatchObject({ status: 'error', code: 'timeout' });
      expect(ended).toEqual(['timeout']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts validation and execution against one timeout', async () => {
    vi.useFakeTimers();
    try {
      const parameters = z
        .object({ input: z.string() })
        .refine(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 600)));
      const registry = new ToolRegistry([
        { name: 'probe', description: 'Probe', parameters, execute: () => new Promise(() => {}) },
      ]);
      const outcome = track(runToolCall(registry, call(), contextWith(), { timeoutMs: 1_000 }));

      await vi.advanceTimersByTimeAsync(1_000);

      expect(outcome.value).toMatchObject({ status: 'error', code: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends a call whose async validation never settles when the run is cancelled', async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const execute = vi.fn(() => 'ran');
      const registry = registryWithHangingValidation(execute, 0);
      const outcome = track(runToolCall(registry, call(), contextWith({ signal: controller.signal })));
      await vi.advanceTimersByTimeAsync(0);
      expect(outcome.settled).toBe(false);

      controller.abort();
      await vi.advanceTimersByTimeAsync(0);

      expect(outcome.value).toMatchObject({
        status: 'error',
        code: 'cancelled',
        content: 'The tool call was cancelled by the user.',
      });
      expect(execute).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('runToolCall timeouts', () => {
  it.each([
    ["the tool's own timeoutMs", 3e9, undefined],
    ['the timeoutMs option', undefined, 3e9],
  ])(
    'waits the longest timer Node keeps (2^31 - 1 ms) when %s is longer, instead of firing at once',
    async (_where, own, option) => {
      vi.useFakeTimers();
      try {
        const registry = new ToolRegistry([
          {
            name: 'slow',
            description: 'Slow',
            parameters: { type: 'object' },
            ...(own === undefined ? {} : { timeoutMs: own }),
            execute: () => new Promise(() => {}),
          },
        ]);
        const outcome = track(runToolCall(registry, call({}, 'slow'), contextWith(), { timeoutMs: option }));

        await vi.advanceTimersByTimeAsync(2 ** 31 - 2);
        expect(outcome.settled).toBe(false);
        await vi.advanceTimersByTimeAsync(1);

        expect(outcome.value).toMatchObject({
          status: 'error',
          code: 'timeout',
          content: expect.stringContaining('did not finish within 2147483.6 s'),
        });
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it('stops a tool that never settles, aborts its signal and answers with a timeout error', async () => {
    vi.useFakeTimers();
    try {
      let seen: AbortSignal | undefined;
      const registry = registryWith((_args, context) => {
        seen = context.signal;
        return new Promise(() => {});
      });
      const pending = runToolCall(registry, call(), contextWith(), { timeoutMs: 1_500 });
      await vi.advanceTimersByTimeAsync(1_500);
      const outcome = await pending;
      expect(outcome).toMatchObject({ status: 'error', code: 'timeout' });
      expect(outcome.content).toBe(
        'Tool "probe" did not finish within 1.5 s and was stopped. Try a smaller piece of work, or another way to reach the goal.',
      );
      expect(seen?.aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("uses the tool's own timeoutMs over the default", async () => {
    vi.useFakeTimers();
    try {
      const registry = new ToolRegistry([
        {
          name: 'slow',
          description: 'Slow',
          parameters: { type: 'object' },
          timeoutMs: 50,
          execute: () => new Promise(() => {}),
        },
      ]);
      const pending = runToolCall(registry, call({}, 'slow'), contextWith(), { timeoutMs: 60_000 });
      await vi.advanceTimersByTimeAsync(50);
      expect(await pending).toMatchObject({ status: 'error', code: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('never times out a tool whose timeoutMs is 0', async () => {
    vi.useFakeTimers();
    try {
      let finish: (value: string) => void = () => {};
      let started: () => void = () => {};
      const running = new Promise<void>((resolve) => (started = resolve));
      const registry = new ToolRegistry([
        {
          name: 'slow',
          description: 'Slow',
          parameters: { type: 'object' },
          timeoutMs: 0,
          execute: () =>
            new Promise<string>((resolve) => {
              finish = resolve;
              started();
            }),
        },
      ]);
      const pending = runToolCall(registry, call({}, 'slow'), contextWith(), { timeoutMs: 10 });
      // A JSON-Schema tool's first call may wait for zod to load, in real time: the hour passes once it runs.
      await running;
      await vi.advanceTimersByTimeAsync(3_600_000);
      finish('done at last');
      expect(await pending).toMatchObject({ status: 'ok', content: 'done at last' });
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['a synchronous tool', () => 'ok', [], []],
    ['an async tool', async () => 'ok', ['abort'], ['abort']],
  ])('leaves no listener on the run signal after %s', async (_case, execute, added, removed) => {
    const controller = new AbortController();
    const seen = { added: [] as string[], removed: [] as string[] };
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((type: string, ...rest: [never]) => {
      seen.added.push(type);
      add(type, ...rest);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((type: string, ...rest: [never]) => {
      seen.removed.push(type);
      remove(type, ...rest);
    }) as typeof signal.removeEventListener;
    const outcome = await runToolCall(registryWith(execute), call(), contextWith({ signal }));
    expect(outcome).toMatchObject({ status: 'ok', content: 'ok' });
    // A tool that answered at once has nothing left to race: no listener, no timer.
    expect(seen).toEqual({ added, removed });
  });

  it('fails a call whose result has a then that throws when read, as await would', async () => {
    const hostile = Object.defineProperty({}, 'then', {
      get() {
        throw new Error('no then');
      },
    });
    const outcome = await runToolCall(
      registryWith(() => hostile),
      call(),
      contextWith(),
    );
    expect(outcome).toMatchObject({ status: 'error', code: 'tool_failed', content: 'Tool "probe" failed: no then' });
  });

  it('passes the call signal on when a tool spreads its context', async () => {
    const controller = new AbortController();
    let inner: AbortSignal | undefined;
    const outcome = runToolCall(
      registryWith(async (_args, context) => {
        const copy = { ...context };
        inner = copy.signal;
        await new Promise((resolve) => copy.signal.addEventListener('abort', resolve));
        return 'stopped';
      }),
      call(),
      contextWith({ signal: controller.signal }),
    );
    controller.abort('user');
    expect(await outcome).toMatchObject({ status: 'error', code: 'cancelled' });
    expect(inner?.aborted).toBe(true);
  });
});

describe('stringifyToolResult', () => {
  it('keeps strings, including the empty string, as they are', () => {
    expect([stringifyToolResult('hello'), stringifyToolResult('')]).toEqual(['hello', '']);
  });

  it('writes numbers, booleans, null, arrays and objects as JSON', () => {
    expect([42, true, null, [1, 'a'], { a: { b: 1 } }].map((value) => stringifyToolResult(value))).toEqual([
      '42',
      'true',
      'null',
      '[1,"a"]',
      '{"a":{"b":1}}',
    ]);
  });

  it('says "(no output)" for undefined', () => {
    expect(stringifyToolResult(undefined)).toBe('(no output)');
  });

  it('writes a circular reference as "[Circular]" and a bigint as a string', () => {
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;

    expect([stringifyToolResult(circular), stringifyToolResult(10n)]).toEqual([
      '{"name":"loop","self":"[Circular]"}',
      '"10"',
    ]);
  });

  it('says why when a value cannot be serialized at all', () => {
    const hostile = {
      toJSON: () => {
        throw new Error('no');
      },
    };
    expect(stringifyToolResult(hostile)).toBe('(the result could not be serialized: no)');
  });

  it('cuts a long result and says how much was cut', () => {
    expect(stringifyToolResult('x'.repeat(15), 10)).toBe(`${'x'.repeat(10)}\n… (cut: 5 more characters)`);
  });
});

it('abandons a tool whose synchronous part aborted the signal and which then ignores it', async () => {
  const controller = new AbortController();
  const registry = registryWith(() => {
    controller.abort();
    return new Promise(() => {});
  });
  const outcome = await runToolCall(registry, call(), contextWith({ signal: controller.signal }));
  expect(outcome).toMatchObject({ status: 'error', code: 'cancelled' });
});
