import type { AgentEvent } from '@agentloop/core';
import { DefaultAgent, defineTool, ProviderError } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryOutput, VirtualTerminal } from '../test-support/index.js';
import { EventRenderer } from './event-renderer.js';
import { loadMarkdownBlocks } from './markdown.js';
import { Spinner } from './spinner.js';
import { createStyle } from './terminal.js';

const readFile = defineTool({
  name: 'read_file',
  description: 'Reads a file.',
  parameters: z.object({ path: z.string() }),
  execute: ({ path }) => {
    if (path === 'missing.txt') throw new Error(`File not found: ${path}`);
    return `contents of ${path}`;
  },
});

/** Runs a scripted agent and renders its events; returns the output and the spinner's calls. */
async function render(
  steps: ScriptStep[],
  options: { verbose?: boolean; spinner?: boolean; maxIterations?: number; width?: number } = {},
) {
  // A width of its own is a terminal's: lines are wrapped to it.
  const output = options.width === undefined ? new MemoryOutput() : new MemoryOutput(true, options.width);
  const spins: string[] = [];
  const spinner = { start: (text: string) => spins.push(text), stop: () => undefined } as unknown as Spinner;
  let clock = 0;
  const renderer = new EventRenderer(output, {
    style: createStyle(false),
    width: options.width ?? 100,
    verbose: options.verbose ?? false,
    ...(options.spinner ? { spinner } : {}),
    now: () => (clock += 1000),
  });
  const agent = new DefaultAgent(new ScriptedProvider(steps, { chunkSize: 4 }), {
    tools: [readFile],
    // A still clock: a tool call's time is 0 ms however loaded the machine is.
    now: () => 0,
    ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }),
  });
  agent.onAny((event: AgentEvent) => renderer.handle(event));
  const result = await agent.run('go');
  return { text: output.text, spins, result };
}

const complete = { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] };

describe('EventRenderer', () => {
  it('streams the model text and shows each tool call as one line', async () => {
    const { text } = await render([
      { text: 'Let me read it.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      complete,
    ]);
    expect(text).toMatch(/^Let me read it\.\n✓ read_file\(path: "a\.txt"\) 0 ms → contents of a\.txt\n$/);
  });

  it.each([
    ['plain', false],
    ['verbose', true],
  ])(
    'hides the password of a URL the model writes, in its text, thinking and tool calls (%s)',
    async (_mode, verbose) => {
      const url = 'postgres://app:s3cret@db.internal/app';
      const { text, result } = await render(
        [
          {
            thinking: `Try ${url} first.`,
            text: `Connecting to ${url} now.`,
            toolCalls: [{ name: 'read_file', arguments: { path: url } }],
          },
          complete,
        ],
        { verbose },
      );
      expect(text).not.toContain('s3cret');
      expect(text).toContain('Try postgres://***@db.internal/app first.');
      expect(text).toContain('Connecting to postgres://***@db.internal/app now.\n');
      expect(text).toMatch(
        /✓ read_file\(path: "postgres:\/\/\*\*\*@db\.internal\/app"\) \d+ ms → contents of postgres:\/\/\*\*\*@/,
      );
      // Only the display: the conversation, which the model sees and the session stores, keeps the URL.
      expect(JSON.stringify(result.messages)).toContain(`"text":"Connecting to ${url} now."`);
    },
  );

  it('shows a failed tool call with its error', async () => {
    const { text } = await render([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] },
      complete,
    ]);
    expect(text).toMatch(/^✗ read_file\(path: "missing\.txt"\) 0 ms → error: .*File not found: missing\.txt/);
  });

  it('shows no line for a loop-control call that ends the run', async () => {
    const { text, result } = await render([complete]);
    expect(result.exit).toBe('task_completion');
    expect(text).toBe('');
  });

  it('shows a loop-control call with invalid arguments, which the model must retry', async () => {
    const { text } = await render([{ toolCalls: [{ name: 'task_completion', arguments: {} }] }, complete]);
    expect(text).toMatch(/^✗ task_completion\(\) 0 ms → error: /);
  });

  it('says in one line that the last step asks the model to wrap up, and spins on it', async () => {
    const { text, spins, result } = await render(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
        { toolCalls: [{ name: 'task_completion', arguments: { result: 'Read a.txt; b.txt remains.' } }] },
      ],
      { maxIterations: 2, spinner: true },
    );
    expect(result.exit).toBe('max_iterations');
    expect(text).toMatch(
      /^✓ read_file\(path: "a\.txt"\) 0 ms → contents of a\.txt\n⚑ Last step \(2 of 2\): asking the model to wrap up and say what remains\.\n$/,
    );
    // After the first model call, the status line says how full the context is (the script's 15 tokens).
    expect(spins.slice(spins.lastIndexOf('Working… · 0% of context'))).toEqual([
      'Working… · 0% of context',
      'Wrapping up… · 0% of context',
      'Preparing task_completion… · 0% of context',
    ]);
  });

  it('folds thinking to one dimmed line with how long it took', async () => {
    const { text } = await render(
      [{ thinking: 'First I consider\nthe question.', text: 'Answer.', toolCalls: [] }, complete],
      {},
    );
    expect(text.split('\n')[0]).toBe('✻ First I consider the question. 1.0 s');
  });

  it('notes how much of long thinking was folded away', async () => {
    const { text } = await render([{ thinking: 'x'.repeat(200) }, complete]);
    const line = text.split('\n')[0] as string;
    expect(line).toMatch(/^✻ x+… \(\+\d+ chars; \/verbose shows all\) 1\.0 s$/);
    expect(line.length).toBeLessThanOrEqual(100);
    expect(line.length).toBeGreaterThan(90);
    expect(Number(/\+(\d+) chars/.exec(line)?.[1]) + (line.match(/x/g)?.length ?? 0)).toBe(200);
  });

  it('shows thinking whole when verbose', async () => {
    const { text } = await render([{ thinking: 'line one\nline two', text: 'Answer.' }, complete], { verbose: true });
    expect(text.startsWith('✻ line one\nline two\nAnswer.\n')).toBe(true);
  });

  it('strips terminal control sequences from streamed text, thinking and tool results', async () => {
    const evil = 'x\x1b]52;c;ZXZpbA==\x07y\x1b[2J\x9b1m\rz';
    const steps: ScriptStep[] = [
      { thinking: evil, text: evil, toolCalls: [{ name: 'read_file', arguments: { path: evil } }] },
      complete,
    ];
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear
    const controls = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
    expect((await render(steps)).text).not.toMatch(controls);
    expect((await render(steps, { verbose: true })).text).not.toMatch(controls);
  });

  it('annotates output that a retry discards', async () => {
    const error = new ProviderError('Overloaded', { code: 'overloaded', provider: 'scripted', statusCode: 529 });
    const { text } = await render([
      {
        text: 'Partial',
        chunks: [{ type: 'retry', attempt: 1, delayMs: 500, error, discardOutput: true }],
        toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }],
      },
      complete,
    ]);
    expect(text).toContain(
      'Partial\n↻ overloaded: Overloaded. Retrying in 500 ms (attempt 2). The partial answer above is discarded.\n',
    );
  });

  it('wraps a retry line longer than the width between words, not inside one', async () => {
    const error = new ProviderError('The server is overloaded with requests from other customers right now', {
      code: 'overloaded',
      provider: 'scripted',
      statusCode: 529,
    });
    const { text } = await render(
      [
        {
          chunks: [{ type: 'retry', attempt: 1, delayMs: 500, error, discardOutput: false }],
          toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }],
        },
        complete,
      ],
      { width: 60 },
    );
    expect(text.split('\n').slice(0, 2)).toEqual([
      '↻ overloaded: The server is overloaded with requests from',
      '  other customers right now. Retrying in 500 ms (attempt 2).',
    ]);
  });

  it('wraps a tool line whose call alone is wider than the width', async () => {
    const path = 'packages/executor-cli/src/render/some-file.ts';
    const { text } = await render([{ toolCalls: [{ name: 'read_file', arguments: { path, note: 'x' } }] }, complete], {
      width: 60,
    });
    const rows = text.trimEnd().split('\n');
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.every((row) => row.length <= 60)).toBe(true);
    expect(rows.slice(1).every((row) => row.startsWith('  '))).toBe(true);
  });

  it('spins while waiting for the model and while a tool runs, with how full the context is', async () => {
    const { spins } = await render(
      [
        {
          toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }],
          usage: { inputTokens: 84_000, outputTokens: 1_000 },
        },
        complete,
      ],
      { spinner: true },
    );
    // 85,000 tokens of the ScriptedProvider's 200,000-token window.
    expect(spins).toEqual([
      'Working…',
      'Preparing read_file…',
      'read_file(path: "a.txt") · 43% of context',
      'Working… · 43% of context',
      'Preparing task_completion… · 43% of context',
    ]);
  });

  it('shows a compaction: a spinner while it runs, then what it did', () => {
    const output = new MemoryOutput();
    const spins: string[] = [];
    const spinner = { start: (text: string) => spins.push(text), stop: () => undefined, active: false };
    const renderer = new EventRenderer(output, {
      style: createStyle(false),
      width: 100,
      spinner: spinner as unknown as Spinner,
    });
    renderer.handle({
      type: 'compaction-start',
      iteration: 9,
      reason: 'threshold',
      tokensBefore: 170_000,
      windowTokens: 200_000,
      messages: 40,
    });
    renderer.handle({
      type: 'compaction-end',
      iteration: 9,
      reason: 'threshold',
      strategy: 'summary',
      tokensBefore: 170_000,
      tokensAfter: 30_500,
      messagesBefore: 40,
      messagesAfter: 6,
      kept: { systemMessages: 0, firstUserMessage: true, recentMessages: 4 },
      summarizedMessages: 35,
      droppedMessages: 0,
      droppedToolResults: 0,
    });

    expect(spins).toEqual(['Compacting the conversation…', 'Working…']);
    expect(output.text).toBe(
      '⇣ Compacted the conversation: 170,000 → 30,500 tokens; 35 earlier messages summarised.\n',
    );
  });

  it('strips control sequences from the listener-error and queued-input lines', () => {
    const output = new MemoryOutput();
    const renderer = new EventRenderer(output, { style: createStyle(false), width: 100, verbose: true });
    renderer.handle({
      type: 'listener-error',
      event: 'tool-call',
      error: new Error('bad\x1b]52;c;eA==\x07 \x9b2Jthing'),
    });
    renderer.handle({ type: 'input-queued', text: 'see\x1b]0;title\x07 \u202eit' });
    expect(output.text).toBe(
      "(a listener of tool-call failed: bad thing)\n↳ queued for the agent's next step: see it\n",
    );
  });

  it('shows queued input after the line being streamed, not in the middle of it, on a pipe', () => {
    const output = new MemoryOutput();
    const renderer = new EventRenderer(output, { style: createStyle(false), width: 100 });
    renderer.handle({ type: 'message-start', iteration: 1 });
    renderer.handle({ type: 'message-content', iteration: 1, text: 'The quick brown ' });
    renderer.handle({ type: 'input-queued', text: 'also check\nthe tests' });
    renderer.handle({ type: 'message-content', iteration: 1, text: 'fox jumps.\nOver the ' });
    renderer.handle({ type: 'message-content', iteration: 1, text: 'lazy dog.' });
    renderer.handle({ type: 'message-end', iteration: 1, text: '' });
    expect(output.text).toBe(
      "The quick brown fox jumps.\n↳ queued for the agent's next step: also check the tests\nOver the lazy dog.\n",
    );
  });

  it('shows a note that waited for the line at the end of the message at the latest', () => {
    const output = new MemoryOutput();
    const renderer = new EventRenderer(output, { style: createStyle(false), width: 100 });
    renderer.handle({ type: 'message-start', iteration: 1 });
    renderer.handle({ type: 'message-content', iteration: 1, text: 'half a line' });
    renderer.handle({ type: 'input-delivered', iteration: 2, text: 'also check\nthe tests' });
    expect(output.text).toBe('half a line');
    renderer.handle({ type: 'message-end', iteration: 1, text: 'half a line' });
    expect(output.text).toBe('half a line\n↳ delivered to the agent: also check the tests\n');
  });

  it('puts queued input above the line being streamed on a live terminal, and the line goes on whole', () => {
    const terminal = new VirtualTerminal(60, 10);
    const renderer = new EventRenderer(terminal, { style: createStyle(false), width: 60, live: true });
    renderer.handle({ type: 'message-start', iteration: 1 });
    renderer.handle({ type: 'message-content', iteration: 1, text: 'First line.\nThe quick brown ' });
    renderer.handle({ type: 'input-queued', text: 'then check the README' });
    expect(terminal.screen).toBe(
      "First line.\n↳ queued for the agent's next step: then check the README\nThe quick brown",
    );
    renderer.handle({ type: 'message-content', iteration: 1, text: 'fox jumps over the lazy dog.' });
    renderer.handle({ type: 'message-end', iteration: 1, text: '' });
    renderer.handle({ type: 'input-delivered', iteration: 2, text: 'then check the README' });
    expect(terminal.screen).toBe(
      [
        'First line.',
        "↳ queued for the agent's next step: then check the README",
        'The quick brown fox jumps over the lazy dog.',
        '↳ delivered to the agent: then check the README',
      ].join('\n'),
    );
  });

  it('keeps the spinner going below a note', () => {
    const terminal = new VirtualTerminal(60, 10);
    const spinner = new Spinner(terminal, createStyle(false), {
      setInterval: () => 1,
      clearInterval: () => undefined,
      now: () => 0,
    });
    const renderer = new EventRenderer(terminal, { style: createStyle(false), width: 60, live: true, spinner });
    renderer.handle({ type: 'tool-call', iteration: 1, toolCallId: 'a', name: 'slow_tool', arguments: {} });
    renderer.handle({ type: 'input-queued', text: 'and then?' });
    expect(terminal.screen).toMatch(/^↳ queued for the agent's next step: and then\?\n. slow_tool\(\)$/);
    expect(spinner.active).toBe(true);
  });

  it('renders the streamed text as Markdown on a live terminal, each line once it ends', async () => {
    const terminal = new VirtualTerminal(60, 10);
    const renderer = new EventRenderer(terminal, {
      style: createStyle(false),
      width: 60,
      live: true,
      markdown: await loadMarkdownBlocks(),
    });
    renderer.handle({ type: 'message-start', iteration: 1 });
    renderer.handle({ type: 'message-content', iteration: 1, text: 'Some **bo' });
    // The line is not complete yet: it shows as written.
    expect(terminal.screen).toBe('Some **bo');
    renderer.handle({ type: 'message-content', iteration: 1, text: 'ld** text.\n\n- item `x`' });
    expect(terminal.screen).toBe('Some bold text.\n\n- item `x`');
    renderer.handle({ type: 'message-content', iteration: 1, text: '\n\nAfter.' });
    renderer.handle({ type: 'message-end', iteration: 1, text: '' });
    expect(terminal.screen).toBe('Some bold text.\n\n  * item x\n\nAfter.');
  });

  it('leaves the streamed text as written on a pipe, Markdown or not', async () => {
    const output = new MemoryOutput();
    const renderer = new EventRenderer(output, {
      style: createStyle(false),
      width: 60,
      markdown: await loadMarkdownBlocks(),
    });
    renderer.handle({ type: 'message-start', iteration: 1 });
    renderer.handle({ type: 'message-content', iteration: 1, text: 'Some **bold**\n- item' });
    renderer.handle({ type: 'message-end', iteration: 1, text: '' });
    expect(output.text).toBe('Some **bold**\n- item\n');
  });

  it('says in one line that the session switched to the XML protocol', () => {
    const output = new MemoryOutput();
    const renderer = new EventRenderer(output, { style: createStyle(false), width: 100 });
    renderer.handle({
      type: 'protocol-switch',
      iteration: 1,
      from: 'native',
      to: 'xml',
      reason: 'registry.ollama.ai/library/gemma:2b does not support tools',
    });
    expect(output.text).toBe(
      '⇄ The server rejected native tool calls: tools go through the XML protocol from now on.\n',
    );
  });
});
