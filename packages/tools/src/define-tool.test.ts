import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { ToolDefinitionError } from './errors/index.js';
import type { ToolContext } from './tool.js';

const context: ToolContext = {
  signal: new AbortController().signal,
  sessionId: 'session-1',
  workspace: '/workspace',
  toolCallId: 'call-1',
  reportProgress: () => {},
};

describe('defineTool', () => {
  it('returns a tool with the given name, description and parameters', () => {
    const parameters = z.object({ query: z.string() });
    const tool = defineTool({
      name: 'web_search',
      description: 'Search the web',
      parameters,
      execute: () => 'results',
    });

    expect(tool).toMatchObject({ name: 'web_search', description: 'Search the web' });
    expect(tool.parameters).toBe(parameters);
  });

  it('keeps the annotations that say what the tool does', () => {
    const tool = defineTool({
      name: 'read_notes',
      description: 'Read the notes',
      parameters: z.object({}),
      annotations: { readOnly: true, openWorld: false },
      execute: () => 'notes',
    });

    expect(tool.annotations).toEqual({ readOnly: true, openWorld: false });
  });

  it('keeps the sequential flag of a tool whose calls must not overlap', () => {
    const tool = defineTool({
      name: 'browser_click',
      description: 'Click in the shared browser',
      parameters: { type: 'object', properties: { selector: { type: 'string' } } },
      sequential: true,
      execute: () => 'clicked',
    });

    expect(tool.sequential).toBe(true);
  });

  it('rejects a config whose parameters getter throws as an invalid definition naming the tool', () => {
    const config = {
      name: 'search',
      description: 'Search',
      get parameters(): never {
        throw new Error('not loaded');
      },
      execute: () => 'results',
    };

    let thrown: unknown;
    try {
      defineTool(config);
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(ToolDefinitionError);
    expect(thrown).toMatchObject({
      code: 'invalid_tool_definition',
      message: 'Tool "search": reading its definition threw "not loaded".',
    });
  });

  it('returns a copy, so changing the config afterwards does not change the tool', () => {
    const config = { name: 'echo', description: 'Echo', parameters: { type: 'object' }, execute: () => 'echo' };
    const tool = defineTool(config);
    config.name = 'renamed';

    expect(tool.name).toBe('echo');
  });

  it('passes the arguments and the context to execute and returns its result', async () => {
    const execute = vi.fn(async ({ query, limit }: { query: string; limit: number }) => `${query} x${limit}`);
    const tool = defineTool({
      name: 'web_search',
      description: 'Search the web',
      parameters: z.object({ query: z.string(), limit: z.number() }),
      execute,
    });

    expect(await tool.execute({ query: 'node 24', limit: 3 }, context)).toBe('node 24 x3');
    expect(execute).toHaveBeenCalledWith({ query: 'node 24', limit: 3 }, context);
  });

  it('accepts a plain JSON Schema', async () => {
    const tool = defineTool({
      name: 'read_file',
      description: 'Read a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      execute: (args) => `read ${String(args.path)}`,
    });

    expect(await tool.execute({ path: 'README.md' }, context)).toBe('read README.md');
  });

  describe('parameters no model call could satisfy fail at definition, naming the tool', () => {
    function definitionError(parameters: unknown): unknown {
      try {
        defineTool({ name: 'schedule', description: 'Schedule', parameters: parameters as never, execute: () => '' });
      } catch (error) {
        return error;
      }
      throw new Error('expected defineTool to throw');
    }

    it('rejects a z.date() field, saying what to write instead', () => {
      const error = definitionError(z.object({ title: z.string(), when: z.date() }));

      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect(error).toMatchObject({ code: 'invalid_tool_definition' });
      expect((error as Error).message).toMatch(
        /^Tool "schedule": parameter "when" is z\.date\(\), which JSON cannot carry.*Use z\.iso\.datetime\(\)/,
      );
    });

    it('rejects a Proxy whose traps throw, keeping what it threw as the cause', () => {
      const trap = new Error('no reading here');
      const hostile = new Proxy(
        {},
        {
          get: () => {
            throw trap;
          },
          ownKeys: () => {
            throw trap;
          },
        },
      );

      const error = definitionError(hostile);

      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect(error).toMatchObject({ code: 'invalid_tool_definition', cause: trap });
      expect((error as Error).message).toBe(
        'Tool "schedule": reading its parameters threw "no reading here"; pass a zod schema or a plain JSON ' +
          'Schema object whose fields can be read.',
      );
    });

    it('rejects parameters that do not describe an object', () => {
      expect(definitionError(z.string())).toMatchObject({
        code: 'invalid_tool_definition',
        message:
          'Tool "schedule": parameters must describe an object (z.object({...}) or { type: "object", ... }), got type "string".',
      });
    });

    it('accepts a Proxy that reads as a JSON Schema object', () => {
      const parameters = new Proxy({ type: 'object', properties: { when: { type: 'string' } } }, {});

      const tool = defineTool({ name: 'schedule', description: 'Schedule', parameters, execute: () => '' });

      expect(tool.parameters).toBe(parameters);
    });
  });
});
