import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CliFlags } from '../config/index.js';
import type { ProgramActions } from './program.js';
import { createProgram } from './program.js';

/** Parses a command line and records which action ran with what. */
async function parse(args: string[]) {
  const calls: unknown[] = [];
  const record = (call: unknown) => {
    calls.push(call);
    return 0;
  };
  const program = createProgram(
    {
      interactive: async (task: string | undefined, flags: CliFlags) => record({ command: 'interactive', task, flags }),
      run: async (task: string | undefined, flags: CliFlags, options: { json: boolean }) =>
        record({ command: 'run', task, flags, ...options }),
      configInit: (options) => record({ command: 'config init', ...options }),
      configPath: (cwd) => record({ command: 'config path', cwd }),
      mcpList: async (cwd) => record({ command: 'mcp list', cwd }),
      mcpLogin: async (options) => record({ command: 'mcp login', ...options }),
      mcpLogout: async (options) => record({ command: 'mcp logout', ...options }),
      acp: async (flags) => record({ command: 'acp', flags }),
      sessions: async (options) => record({ command: 'sessions', ...options }),
      serve: async (flags, options) => record({ command: 'serve', flags, options }),
    },
    () => undefined,
  );
  const quiet = (command: typeof program): void => {
    command.exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
    for (const subcommand of command.commands) quiet(subcommand);
  };
  quiet(program);
  await program.parseAsync(['node', 'agentloop', ...args]);
  return calls[0];
}

describe('the agentloop command line', () => {
  it('logs in to and out of an MCP server, with the scopes given', async () => {
    const cwd = process.cwd();
    expect(await parse(['mcp', 'login', 'tracker', '--scopes', 'read, write'])).toEqual({
      command: 'mcp login',
      cwd,
      name: 'tracker',
      scopes: ['read', 'write'],
    });
    expect(await parse(['mcp', 'logout', 'tracker'])).toEqual({ command: 'mcp logout', cwd, name: 'tracker' });
    await expect(parse(['mcp', 'login', 'tracker', '--scopes', ','])).rejects.toThrow(
      'give scope names separated by commas',
    );
  });

  it('starts a session with no arguments', async () => {
    expect(await parse([])).toEqual({ command: 'interactive', task: undefined, flags: {} });
  });

  it('serves the page with its port, host, token and --open, and the global options', async () => {
    expect(await parse(['serve'])).toEqual({ command: 'serve', flags: {}, options: {} });
    expect(
      await parse([
        '--model',
        'm',
        'serve',
        '--port',
        '8080',
        '--host',
        '0.0.0.0',
        '--token',
        'a-token-of-sixteen+',
        '--open',
      ]),
    ).toEqual({
      command: 'serve',
      flags: { model: 'm' },
      options: { port: 8080, host: '0.0.0.0', token: 'a-token-of-sixteen+', open: true },
    });
  });

  it('refuses a --port that is not a port number', async () => {
    for (const port of ['http', '-1', '70000', '80.5']) {
      await expect(parse(['serve', '--port', port])).rejects.toThrow(/Must be a port number from 0 to 65535/);
    }
  });

  it('resumes the last session of the directory with --continue or -c', async () => {
    expect(await parse(['--continue'])).toEqual({ command: 'interactive', task: undefined, flags: { continue: true } });
    expect(await parse(['-c', 'and now the tests'])).toEqual({
      command: 'interactive',
      task: 'and now the tests',
      flags: { continue: true },
    });
  });

  it('resumes a session by id with --resume, or asks which without one', async () => {
    expect(await parse(['--resume', '3f2a'])).toEqual({
      command: 'interactive',
      task: undefined,
      flags: { resume: '3f2a' },
    });
    expect(await parse(['--resume'])).toEqual({ command: 'interactive', task: undefined, flags: { resume: true } });
    expect(await parse(['-r'])).toEqual({ command: 'interactive', task: undefined, flags: { resume: true } });
    expect(await parse(['--resume', 's1', 'run', 'next step'])).toMatchObject({
      command: 'run',
      task: 'next step',
      flags: { resume: 's1' },
    });
  });

  it('lists the saved sessions with sessions, of every directory with --all', async () => {
    expect(await parse(['sessions'])).toEqual({ command: 'sessions', cwd: process.cwd(), all: false });
    expect(await parse(['--cwd', '/work/app', 'sessions', '--all'])).toEqual({
      command: 'sessions',
      cwd: '/work/app',
      all: true,
    });
  });

  it('serves an editor with acp, taking the options an editor configuration adds', async () => {
    expect(await parse(['acp'])).toEqual({ command: 'acp', flags: {} });
    expect(await parse(['--model', 'anthropic:claude-sonnet-4-6', 'acp', '--approval', 'auto'])).toEqual({
      command: 'acp',
      flags: { model: 'anthropic:claude-sonnet-4-6', approval: 'auto' },
    });
  });

  it('reads every option', async () => {
    const args = [
      '--provider',
      'openai',
      '--model',
      'gpt-5',
      '--base-url',
      'http://x/v1',
      '--protocol',
      'xml',
      '--max-iterations',
      '7',
      '--system',
      'Be brief.',
      '--cwd',
      '/tmp',
      '--verbose',
      'first task',
    ];
    expect(await parse(args)).toEqual({
      command: 'interactive',
      task: 'first task',
      flags: {
        provider: 'openai',
        model: 'gpt-5',
        baseUrl: 'http://x/v1',
        protocol: 'xml',
        maxIterations: 7,
        system: 'Be brief.',
        cwd: '/tmp',
        verbose: true,
      },
    });
  });

  it('runs one task with run, taking options before or after the subcommand', async () => {
    expect(await parse(['--model', 'm', 'run', '--json', '--max-iterations', '3', 'do it'])).toEqual({
      command: 'run',
      task: 'do it',
      flags: { model: 'm', maxIterations: 3 },
      json: true,
    });
  });

  it('writes the configuration template with config init', async () => {
    expect(await parse(['config', 'init', '--project', '--cwd', '/work'])).toEqual({
      command: 'config init',
      project: true,
      force: false,
      cwd: '/work',
    });
  });

  it('suggests the subcommand a mistyped first word is close to', async () => {
    await expect(parse(['rnu', 'hello'])).rejects.toMatchObject({
      code: 'commander.unknownCommand',
      message: "error: unknown command 'rnu'\n(Did you mean run?)",
    });
    await expect(parse(['--model', 'm', 'confg', 'init'])).rejects.toMatchObject({
      message: "error: unknown command 'confg'\n(Did you mean config?)",
    });
  });

  it("points an unknown subcommand of a group to the group's own help, which lists its subcommands", async () => {
    const errors: string[] = [];
    const program = createProgram({} as ProgramActions, () => undefined);
    program.exitOverride();
    for (const command of program.commands) {
      command.exitOverride().configureOutput({ writeErr: (text) => errors.push(text), writeOut: () => undefined });
    }

    await expect(program.parseAsync(['node', 'agentloop', 'config', 'frob'])).rejects.toMatchObject({
      code: 'commander.unknownCommand',
    });
    await expect(program.parseAsync(['node', 'agentloop', 'mcp', 'lsit'])).rejects.toMatchObject({
      code: 'commander.unknownCommand',
    });

    expect(errors).toEqual([
      "error: unknown command 'frob'\n",
      '(agentloop config --help lists its subcommands: init, path)\n',
      "error: unknown command 'lsit'\n(Did you mean list?)\n",
      '(agentloop mcp --help lists its subcommands: list, login, logout)\n',
    ]);
  });

  it('says to quote a task of several words', async () => {
    await expect(parse(['fix', 'the', 'bug'])).rejects.toMatchObject({
      code: 'commander.excessArguments',
      message:
        'error: too many arguments: agentloop takes one task, and a task of several words goes in quotes, e.g. agentloop "fix the failing test"',
    });
    await expect(parse(['run', 'rnu', 'hello'])).rejects.toThrow(
      'error: too many arguments: agentloop run takes one task, and a task of several words goes in quotes',
    );
  });

  it('keeps a single word, or a first word with spaces, as the task', async () => {
    expect(await parse(['rnu'])).toMatchObject({ command: 'interactive', task: 'rnu' });
    expect(await parse(['run', 'rnu'])).toMatchObject({ command: 'run', task: 'rnu' });
    await expect(parse(['rnu it', 'hello'])).rejects.toMatchObject({ code: 'commander.excessArguments' });
  });

  it('rejects an unknown protocol', async () => {
    await expect(parse(['--protocol', 'json'])).rejects.toBeInstanceOf(CommanderError);
  });

  it('reads how a run meets its iteration limit', async () => {
    expect(await parse(['run', '--on-max-iterations', 'stop', 'x'])).toMatchObject({
      command: 'run',
      flags: { onMaxIterations: 'stop' },
    });
    expect(await parse(['--on-max-iterations', 'wrap-up'])).toMatchObject({ flags: { onMaxIterations: 'wrap-up' } });
  });

  it('rejects an ending at the iteration limit other than wrap-up or stop, naming both', async () => {
    await expect(parse(['run', '--on-max-iterations', 'halt', 'x'])).rejects.toThrow(
      "error: option '--on-max-iterations <ending>' argument 'halt' is invalid. Allowed choices are wrap-up, stop.",
    );
  });

  it('reads the cassette file to record to, before or after run', async () => {
    expect(await parse(['run', '--record', 'session.jsonl', 'x'])).toMatchObject({
      command: 'run',
      flags: { record: 'session.jsonl' },
    });
    expect(await parse(['--record', 'a.jsonl'])).toMatchObject({
      command: 'interactive',
      flags: { record: 'a.jsonl' },
    });
  });

  it('reads the approval and sandbox modes, before or after run', async () => {
    expect(await parse(['--approval', 'ask', '--sandbox', 'read-only'])).toMatchObject({
      command: 'interactive',
      flags: { approval: 'ask', sandbox: 'read-only' },
    });
    expect(await parse(['run', '--approval', 'yolo', 'x'])).toMatchObject({
      command: 'run',
      flags: { approval: 'yolo' },
    });
  });

  it('rejects an unknown approval or sandbox mode, naming the modes', async () => {
    await expect(parse(['--approval', 'never'])).rejects.toThrow(
      "error: option '--approval <mode>' argument 'never' is invalid. Allowed choices are read-only, ask, auto, yolo.",
    );
    await expect(parse(['run', '--sandbox', 'none', 'x'])).rejects.toThrow(
      "error: option '--sandbox <mode>' argument 'none' is invalid. Allowed choices are workspace-write, read-only, off.",
    );
  });

  it('rejects an iteration limit that is not a positive whole number', async () => {
    await expect(parse(['run', '--max-iterations', '2.5', 'x'])).rejects.toThrow(
      /Must be a whole number of at least 1/,
    );
  });
});
