import type { AgentResult, Usage } from '@agentloop/core';
import { AgentloopError, ProviderError } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import type { ResultRenderOptions } from './render-result.js';
import { renderResult, renderResultSections } from './render-result.js';
import { createStyle } from './terminal.js';

const usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
const base = { usage, iterations: 3, messages: [], durationMs: 10 };
const options: ResultRenderOptions = {
  style: createStyle(false),
  markdown: (text) => `<md>${text}</md>`,
  mode: 'interactive',
};
const result = (fields: Partial<AgentResult> & Pick<AgentResult, 'exit' | 'payload'>) =>
  ({ ...base, ...fields }) as AgentResult;

describe('renderResult', () => {
  it('shows a completed task as Markdown with its artifacts', () => {
    const text = renderResult(
      result({ exit: 'task_completion', payload: { result: '**Fixed**', artifacts: ['src/a.ts', 'src/b.ts'] } }),
      options,
    );
    expect(text).toBe('✔ Done\n<md>**Fixed**</md>\nArtifacts:\n  • src/a.ts\n  • src/b.ts\n');
  });

  it('hides the passwords of URLs in what the model wrote, as the --json lines do', () => {
    const url = 'postgres://app:s3cret@db/app';
    expect(renderResult(result({ exit: 'task_completion', payload: { result: `Use ${url}.` } }), options)).toBe(
      '✔ Done\n<md>Use postgres://***@db/app.</md>\n',
    );
    expect(renderResult(result({ exit: 'converse', payload: { message: url } }), options)).toBe(
      '<md>postgres://***@db/app</md>\n',
    );
    const question = renderResult(
      result({ exit: 'ask_question', payload: { question: `Use ${url}?`, suggestions: [url] } }),
      options,
    );
    expect(question).toBe('? Use postgres://***@db/app?\n  1. postgres://***@db/app\n');
  });

  it('shows a conversational message as Markdown', () => {
    expect(renderResult(result({ exit: 'converse', payload: { message: 'Hi!' } }), options)).toBe('<md>Hi!</md>\n');
  });

  it('shows a question with numbered suggestions', () => {
    const text = renderResult(
      result({ exit: 'ask_question', payload: { question: 'Which file?', suggestions: ['a.ts', 'b.ts'] } }),
      options,
    );
    expect(text).toBe('? Which file?\n  1. a.ts\n  2. b.ts\n');
  });

  it('wraps the status lines to the width between words, on a terminal', () => {
    const text = renderResult(result({ exit: 'max_iterations', payload: undefined }), { ...options, width: 60 });
    const rows = text.trimEnd().split('\n');

    expect(rows).toEqual([
      '⚠ Stopped after 3 model calls: the iteration limit was',
      '  reached before the task was done.',
      'Type "continue" to let it go on, or raise the limit with',
      '  --max-iterations or max_iterations in the configuration.',
    ]);
  });

  it('wraps a long question and its suggestions under their own text', () => {
    const question = 'Which of the two configuration files should I change to make the test pass?';
    const suggestions = ['The project file in .agentloop/config.toml of this repository'];
    const text = renderResult(result({ exit: 'ask_question', payload: { question, suggestions } }), {
      ...options,
      width: 50,
    });

    expect(text).toBe(
      '? Which of the two configuration files should I\n' +
        '  change to make the test pass?\n' +
        '  1. The project file in .agentloop/config.toml of\n' +
        '     this repository\n',
    );
  });

  it('leaves the lines whole without a width (a pipe)', () => {
    const text = renderResult(result({ exit: 'max_iterations', payload: undefined }), options);
    expect(text.split('\n')[0]).toBe(
      '⚠ Stopped after 3 model calls: the iteration limit was reached before the task was done.',
    );
  });

  it('says the iteration limit was reached and how to go on in a session', () => {
    const text = renderResult(result({ exit: 'max_iterations', payload: undefined }), options);
    expect(text).toMatch(
      /^⚠ Stopped after 3 model calls: the iteration limit was reached before the task was done\.\nType "continue" to let it go on, or raise the limit with --max-iterations/,
    );
  });

  it('says how to go on after the iteration limit in a one-shot run', () => {
    expect(renderResult(result({ exit: 'max_iterations', payload: undefined }), { ...options, mode: 'run' })).toContain(
      'Run it again with a higher --max-iterations',
    );
  });

  it('does not suggest continuing a one-shot run in a session, which would not have its conversation', () => {
    const text = renderResult(result({ exit: 'max_iterations', payload: undefined }), { ...options, mode: 'run' });
    expect(text).not.toMatch(/interactive|session|continue/i);
  });

  it("shows the wrap-up's summary at the iteration limit under the limit line, then how to go on", () => {
    const text = renderResult(
      result({
        exit: 'max_iterations',
        payload: { result: 'Fixed **a.ts**; b.ts remains.', artifacts: ['a.ts'] },
      }),
      options,
    );
    expect(text).toBe(
      "⚠ Stopped after 3 model calls: the iteration limit was reached before the task was done. The agent's summary of what it did and what remains:\n" +
        '<md>Fixed **a.ts**; b.ts remains.</md>\n' +
        'Artifacts:\n  • a.ts\n' +
        'Type "continue" to let it go on, or raise the limit with --max-iterations or max_iterations in the configuration.\n',
    );
  });

  it('strips terminal control sequences from the result, message, question and suggestions', () => {
    const evil = 'a\x1b]0;title\x07b\x1b[2Jc\rd';
    expect(
      renderResult(result({ exit: 'task_completion', payload: { result: evil, artifacts: [evil] } }), options),
    ).toBe('✔ Done\n<md>abcd</md>\nArtifacts:\n  • abcd\n');
    expect(renderResult(result({ exit: 'converse', payload: { message: evil } }), options)).toBe('<md>abcd</md>\n');
    expect(
      renderResult(result({ exit: 'ask_question', payload: { question: evil, suggestions: [evil] } }), options),
    ).toBe('? abcd\n  1. abcd\n');
  });

  it('redacts secrets in the verbose error details', () => {
    const error = new AgentloopError('Boom', {
      code: 'tool_crash',
      cause: new Error('request with key sk-live-0123456789 failed'),
    });
    const text = renderResult(result({ exit: 'error', payload: undefined, error }), {
      ...options,
      verbose: true,
      redact: (line) => line.replaceAll('sk-live-0123456789', '[REDACTED]'),
    });
    expect(text).toContain('caused by: Error: request with key [REDACTED] failed');
    expect(text).not.toContain('sk-live-0123456789');
  });

  it('says a cancelled turn keeps the conversation', () => {
    expect(renderResult(result({ exit: 'cancelled', payload: undefined }), options)).toBe(
      'Cancelled. The conversation is kept. Ctrl-C again or Ctrl-D exits.\n',
    );
  });

  it('shows an error as one line naming what to check', () => {
    const error = new ProviderError('401 invalid x-api-key', {
      code: 'authentication',
      provider: 'anthropic',
      statusCode: 401,
    });
    const text = renderResult(result({ exit: 'error', payload: undefined, error }), {
      ...options,
      errorContext: { apiKeySource: 'ANTHROPIC_API_KEY' },
    });
    expect(text).toBe('✗ Anthropic rejected the API key (HTTP 401): check ANTHROPIC_API_KEY.\n');
  });

  it('advises /clear for a conversation too long only where /clear exists', () => {
    const error = new ProviderError('prompt is too long', { code: 'context_length', provider: 'anthropic' });
    const ended = result({ exit: 'error', payload: undefined, error });
    expect(renderResult(ended, { ...options, mode: 'interactive' })).toContain('/clear starts a new one');
    const run = renderResult(ended, { ...options, mode: 'run' });
    expect(run).not.toContain('/clear');
    expect(run).toContain('give a shorter task, or a model with a larger window (--model)');
  });

  it('adds the error details when verbose', () => {
    const error = new AgentloopError('Boom', { code: 'tool_crash', cause: new Error('root cause') });
    const lines = renderResult(result({ exit: 'error', payload: undefined, error }), {
      ...options,
      verbose: true,
    }).split('\n');
    expect(lines[0]).toBe('✗ Boom (tool_crash)');
    expect(lines[1]).toBe('  AgentloopError: Boom [code tool_crash]');
    expect(lines).toContain('  caused by: Error: root cause');
  });
});

describe('renderResultSections', () => {
  it('marks the result apart from the status lines around it', () => {
    const sections = renderResultSections(
      result({ exit: 'task_completion', payload: { result: '**Fixed**', artifacts: ['src/a.ts'] } }),
      { ...options, mode: 'run' },
    );
    expect(sections).toEqual([
      { channel: 'status', text: '✔ Done\n' },
      { channel: 'result', text: '<md>**Fixed**</md>\n' },
      { channel: 'status', text: 'Artifacts:\n  • src/a.ts\n' },
    ]);
  });

  it("takes the wrap-up's summary at the iteration limit as the result, and the rest as status", () => {
    const sections = renderResultSections(
      result({ exit: 'max_iterations', payload: { result: 'Half done.', artifacts: ['notes.md'] } }),
      { ...options, mode: 'run' },
    );
    expect(sections.map((section) => section.channel)).toEqual(['status', 'result', 'status', 'status']);
    expect(sections[1]?.text).toBe('<md>Half done.</md>\n');
    expect(sections[3]?.text).toBe(
      'Run it again with a higher --max-iterations (or max_iterations in the configuration).\n',
    );
  });

  it('takes the answer and the question as results, and the other endings as status', () => {
    const channels = (fields: Pick<AgentResult, 'exit' | 'payload'> & Partial<AgentResult>) =>
      renderResultSections(result(fields), options).map((section) => section.channel);
    expect(channels({ exit: 'converse', payload: { message: 'Hi' } })).toEqual(['result']);
    expect(channels({ exit: 'ask_question', payload: { question: 'Which?' } })).toEqual(['result']);
    expect(channels({ exit: 'max_iterations', payload: undefined })).toEqual(['status']);
    expect(channels({ exit: 'cancelled', payload: undefined })).toEqual(['status']);
    expect(
      channels({ exit: 'error', payload: undefined, error: new AgentloopError('x', { code: 'tool_crash' }) }),
    ).toEqual(['status']);
  });
});
