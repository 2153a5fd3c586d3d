import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CompletionServer, CompletionSources } from './prompt-completer.js';
import { createPromptCompleter, DEFAULT_COMPLETION_TIMEOUT_MS } from './prompt-completer.js';

const everything: CompletionServer = {
  name: 'everything',
  prompts: ['simple-prompt', 'args-prompt'],
  resources: ['demo://resource/static/document/architecture.md', 'demo://resource/static/document/features.md'],
  resourceTemplates: ['demo://resource/dynamic/text/{resourceId}'],
};

function sources(overrides: Partial<CompletionSources> = {}): CompletionSources {
  return {
    commands: ['help', '?', 'tools', 'model', 'mcp', 'exit', 'quit'],
    skills: async () => ['pdf', 'deploy', 'deploy-docs'],
    servers: async () => [everything, { name: 'docs', prompts: [], resources: [], resourceTemplates: [] }],
    ...overrides,
  };
}

describe('createPromptCompleter', () => {
  afterEach(() => vi.useRealTimers());

  it('completes a built-in command at the start of the line, with a space after it', async () => {
    const complete = createPromptCompleter(sources());
    expect(await complete('/he')).toEqual([['/help '], '/he']);
    expect(await complete('  /qu')).toEqual([['/quit '], '/qu']);
  });

  it('offers every command that starts with the word, for readline to list or extend', async () => {
    const complete = createPromptCompleter(sources());
    expect(await complete('/m')).toEqual([['/model', '/mcp'], '/m']);
  });

  it('matches commands whatever their case, as the session runs them', async () => {
    const complete = createPromptCompleter(sources());
    expect(await complete('/TO')).toEqual([['/tools '], '/TO']);
  });

  it('completes an MCP prompt as /server:prompt', async () => {
    const complete = createPromptCompleter(sources());
    expect(await complete('/ev')).toEqual([['/everything:simple-prompt', '/everything:args-prompt'], '/ev']);
    expect(await complete('/everything:s')).toEqual([['/everything:simple-prompt '], '/everything:s']);
  });

  it('completes a slash command only as the line’s first word', async () => {
    const complete = createPromptCompleter(sources());
    expect(await complete('look at /he')).toEqual([[], '/he']);
  });

  it('completes a skill’s $name anywhere in the line', async () => {
    const complete = createPromptCompleter(sources());
    expect(await complete('read it with $p')).toEqual([['$pdf '], '$p']);
    expect(await complete('$dep')).toEqual([['$deploy', '$deploy-docs'], '$dep']);
  });

  it('completes a server’s name after @, anywhere in the line, with the colon and no space', async () => {
    const complete = createPromptCompleter(sources());
    expect(await complete('summarise @ev')).toEqual([['@everything:'], '@ev']);
    expect(await complete('@')).toEqual([['@everything:', '@docs:'], '@']);
  });

  it('completes a server’s resource URIs after @server:, its templates listed but not filled in', async () => {
    const complete = createPromptCompleter(sources());
    expect(await complete('@everything:')).toEqual([
      [
        '@everything:demo://resource/static/document/architecture.md',
        '@everything:demo://resource/static/document/features.md',
        '@everything:demo://resource/dynamic/text/{resourceId}',
      ],
      '@everything:',
    ]);
    expect(await complete('see @everything:demo://resource/static/document/f')).toEqual([
      ['@everything:demo://resource/static/document/features.md '],
      '@everything:demo://resource/static/document/f',
    ]);
  });

  it('fills in a template’s fixed start only, and lists it on the next Tab', async () => {
    const complete = createPromptCompleter(sources());
    expect(await complete('@everything:demo://resource/d')).toEqual([
      ['@everything:demo://resource/dynamic/text/'],
      '@everything:demo://resource/d',
    ]);
    expect(await complete('@everything:demo://resource/dynamic/text/')).toEqual([
      ['@everything:demo://resource/dynamic/text/{resourceId}', '@everything:demo://resource/dynamic/text/'],
      '@everything:demo://resource/dynamic/text/',
    ]);
  });

  it('stops the common start of several templates at their first brace', async () => {
    const complete = createPromptCompleter(
      sources({
        servers: async () => [
          { name: 'files', prompts: [], resources: [], resourceTemplates: ['file:///{path}', 'file:///{+path}'] },
        ],
      }),
    );
    expect(await complete('@files:f')).toEqual([['@files:file:///'], '@files:f']);
    expect(await complete('@files:file:///')).toEqual([
      ['@files:file:///{path}', '@files:file:///{+path}', '@files:file:///'],
      '@files:file:///',
    ]);
  });

  it('leaves out what could not be mentioned: a URI with a space, a server name a mention cannot have', async () => {
    const complete = createPromptCompleter(
      sources({
        servers: async () => [
          { name: 'my server', prompts: ['x'], resources: [], resourceTemplates: [] },
          { name: 'notes', prompts: [], resources: ['note://a b', 'note://ab'], resourceTemplates: [] },
        ],
      }),
    );
    expect(await complete('@')).toEqual([['@notes:'], '@']);
    expect(await complete('@notes:note://a')).toEqual([['@notes:note://ab '], '@notes:note://a']);
    expect(await complete('/my')).toEqual([[], '/my']);
  });

  it('offers nothing for a word that matches nothing, or is no command, mention or skill', async () => {
    const complete = createPromptCompleter(sources());
    expect(await complete('/nothing')).toEqual([[], '/nothing']);
    expect(await complete('@nobody:x')).toEqual([[], '@nobody:x']);
    expect(await complete('$zip')).toEqual([[], '$zip']);
    expect(await complete('fix the te')).toEqual([[], 'te']);
    expect(await complete('')).toEqual([[], '']);
  });

  it('completes the built-in commands without waiting longer than the timeout for a slow server list', async () => {
    vi.useFakeTimers();
    const complete = createPromptCompleter(sources({ servers: () => new Promise(() => {}) }));
    const completing = complete('/he');
    await vi.advanceTimersByTimeAsync(DEFAULT_COMPLETION_TIMEOUT_MS - 1);
    let settled = false;
    void completing.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await completing).toEqual([['/help '], '/he']);
  });

  it('offers no servers when their list takes longer than the timeout it was given', async () => {
    vi.useFakeTimers();
    const complete = createPromptCompleter(sources({ servers: () => new Promise(() => {}) }), { timeoutMs: 50 });
    const completing = complete('@ev');
    await vi.advanceTimersByTimeAsync(50);
    expect(await completing).toEqual([[], '@ev']);
  });

  it('offers no skills or servers when they cannot be had (the agent failed to start)', async () => {
    const failed = () => Promise.reject(new Error('no agent'));
    const complete = createPromptCompleter(sources({ servers: failed, skills: failed }));
    expect(await complete('@ev')).toEqual([[], '@ev']);
    expect(await complete('$p')).toEqual([[], '$p']);
    expect(await complete('/ex')).toEqual([['/exit '], '/ex']);
  });
});
