import type { LLMProvider, Tool } from '@agentloop/core';
import { defineTool } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../config/index.js';
import { configuredAgentTools } from './configured-agents.js';

const builtin = (name: string): Tool =>
  defineTool({ name, description: `The ${name} tool.`, parameters: z.object({}), execute: () => `${name} ran` });
const BUILTIN = [builtin('read_file'), builtin('write_file'), builtin('run_command')];
const USER_FILE = '/home/me/.config/agentloop/config.toml';
const PROJECT_FILE = '/work/project/.agentloop/config.toml';

function tools(
  agents: NonNullable<Parameters<typeof configuredAgentTools>[0]['config']['agents']>,
  options: { builtinTools?: readonly Tool[] | undefined; providers?: Record<string, LLMProvider> } = {},
) {
  const session = new ScriptedProvider([]);
  return configuredAgentTools({
    config: {
      agents,
      files: [USER_FILE, PROJECT_FILE],
      layers: [
        { file: USER_FILE, settings: {} },
        { file: PROJECT_FILE, settings: { agents } },
      ],
    },
    provider: session,
    providerFor: (model) => {
      const provider = options.providers?.[model];
      if (!provider) throw new Error(`no provider for ${model}`);
      return provider;
    },
    builtinTools: 'builtinTools' in options ? options.builtinTools : BUILTIN,
    agentOptions: { maxIterations: 3, systemPrompt: 'The session prompt.' },
  });
}

describe('configuredAgentTools', () => {
  it('makes a tool per agent that runs it with its own prompt, model and built-in tools', async () => {
    const model = new ScriptedProvider([
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'read it' } }] },
    ]);
    const [tool] = tools(
      { reader: { description: 'Reads files.', model: 'small', system_prompt: 'You read.', tools: ['read_file'] } },
      { providers: { small: model } },
    );
    expect(tool?.name).toBe('reader');
    expect(tool?.description).toBe('Reads files.');

    const value = await tool?.execute(
      { task: 'Read the notes.' },
      {
        signal: new AbortController().signal,
        sessionId: 's',
        workspace: '/w',
        toolCallId: 'c1',
        reportProgress: () => {},
      },
    );

    expect(value).toBe('read it');
    const request = model.requests[0];
    expect(request?.systemPrompt).toContain('You read.');
    expect(request?.systemPrompt).not.toContain('The session prompt.');
    expect(request?.tools?.map((definition) => definition.name).sort()).toEqual([
      'ask_question',
      'converse',
      'read_file',
      'task_completion',
    ]);
  });

  it('refuses a tool that is not a built-in one, naming the file, the key and the tools there are', () => {
    const error = (() => {
      try {
        tools({ writer: { description: 'Writes.', tools: ['write_file', 'write_files'] } });
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      `Invalid configuration in ${PROJECT_FILE}: key "agents.writer.tools[1]" "write_files" is not a built-in tool. The built-in tools are: read_file, write_file, run_command.`,
    );
  });

  it('refuses built-in tools when builtin_tools = false turned them off', () => {
    expect(() =>
      tools({ writer: { description: 'Writes.', tools: ['write_file'] } }, { builtinTools: undefined }),
    ).toThrow(/names the built-in tool "write_file", but builtin_tools = false turns the built-in tools off/);
  });
});
