import { describe, expect, it } from 'vitest';
import { builtinSlashCommands, findSlashCommand, parseSlashCommand } from './slash-commands.js';

describe('parseSlashCommand', () => {
  it('splits a command from its arguments', () => {
    expect(parseSlashCommand('/model  openai:gpt-5 ')).toEqual({ name: 'model', args: 'openai:gpt-5' });
  });

  it('takes the name in any case', () => {
    expect(parseSlashCommand('/HELP')).toEqual({ name: 'help', args: '' });
  });

  it('leaves ordinary text alone', () => {
    expect(parseSlashCommand('fix the /tmp path handling')).toBeUndefined();
  });

  it('leaves a line that starts with a path alone', () => {
    expect(parseSlashCommand('/tmp/build.log is empty, why?')).toBeUndefined();
  });

  it('takes an MCP prompt’s server:prompt name, and leaves a file name alone', () => {
    expect(parseSlashCommand('/everything:args-prompt Lyon')).toEqual({ name: 'everything:args-prompt', args: 'Lyon' });
    expect(parseSlashCommand('/README.md is out of date')).toBeUndefined();
  });
});

describe('findSlashCommand', () => {
  it('finds a command by an alias', () => {
    expect(findSlashCommand(builtinSlashCommands, 'quit')?.name).toBe('exit');
  });

  it('has the built-in commands, in the order /help lists them', () => {
    expect(builtinSlashCommands.map((command) => command.name)).toEqual([
      'help',
      'tools',
      'skills',
      'mcp',
      'model',
      'protocol',
      'approval',
      'clear',
      'compact',
      'usage',
      'verbose',
      'exit',
    ]);
  });
});
