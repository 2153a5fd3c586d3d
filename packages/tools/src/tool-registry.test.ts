import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { AgentloopError, ToolDefinitionError } from './errors/index.js';
import type { Tool } from './tool.js';
import { ToolRegistry } from './tool-registry.js';

const LOOP_CONTROL = ['task_completion', 'ask_question', 'converse'];

const toolNamed = (name: string): Tool =>
  defineTool({
    name,
    description: `The ${name} tool`,
    parameters: z.object({ input: z.string() }),
    execute: () => name,
  });

/** Calls `fn` and returns what it threw, failing the test when it did not throw. */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

const names = (registry: ToolRegistry) => registry.list().map((entry) => entry.tool.name);

describe('ToolRegistry', () => {
  describe('the loop-control tools', () => {
    it('are present in a new registry, in the order task_completion, ask_question, converse', () => {
      expect(names(new ToolRegistry())).toEqual(LOOP_CONTROL);
    });

    it('are marked as loop control, unlike other tools', () => {
      const registry = new ToolRegistry([toolNamed('read_file')]);

      expect(registry.list().map((entry) => [entry.tool.name, entry.loopControl])).toEqual([
        ['task_completion', true],
        ['ask_question', true],
        ['converse', true],
        ['read_file', false],
      ]);
    });

    it('cannot be registered again, with a message that tells the user to rename the tool', () => {
      const error = thrownBy(() => new ToolRegistry().register(toolNamed('converse')));

      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect(error).toMatchObject({
        code: 'duplicate_tool',
        message: 'Tool "converse" is a loop-control tool and is always registered; give your tool another name.',
      });
    });

    it('cannot be removed', () => {
      const registry = new ToolRegistry();
      const error = thrownBy(() => registry.unregister('task_completion'));

      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect(error).toMatchObject({
        code: 'protected_tool',
        message: 'Tool "task_completion" is a loop-control tool and cannot be removed.',
      });
      expect(registry.has('task_completion')).toBe(true);
    });
  });

  describe('order', () => {
    it('lists the loop-control tools first, then the others sorted by name, whatever the registration order', () => {
      const registry = new ToolRegistry([toolNamed('web_search'), toolNamed('bash')]);
      registry.register(toolNamed('read_file'));
      registry.register(toolNamed('apply_patch'));

      expect(names(registry)).toEqual([...LOOP_CONTROL, 'apply_patch', 'bash', 'read_file', 'web_search']);
    });

    it('gives definitions in the same order as list', () => {
      const registry = new ToolRegistry([toolNamed('web_search'), toolNamed('bash')]);

      expect(registry.definitions().map((definition) => definition.name)).toEqual(names(registry));
    });
  });

  describe('register', () => {
    it('returns the entry with the JSON Schema definition sent to the model', () => {
      const registry = new ToolRegistry();
      const entry = registry.register(toolNamed('web_search'));

      expect(entry.definition).toStrictEqual({
        name: 'web_search',
        description: 'The web_search tool',
        inputSchema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
      });
      expect(registry.get('web_search')).toBe(entry);
    });

    it('counts the loop-control tools in its size', () => {
      expect(new ToolRegistry([toolNamed('bash')]).size).toBe(4);
    });

    it('rejects a second tool with the same name, naming the tool', () => {
      const registry = new ToolRegistry([toolNamed('web_search')]);
      const error = thrownBy(() => registry.register(toolNamed('web_search')));

      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect(error).toMatchObject({ code: 'duplicate_tool' });
      expect((error as Error).message).toContain('"web_search"');
    });

    it('keeps the first tool when a duplicate is rejected', () => {
      const first = toolNamed('web_search');
      const registry = new ToolRegistry([first]);
      thrownBy(() => registry.register(toolNamed('web_search')));

      expect(registry.get('web_search')?.tool).toBe(first);
    });

    it.each([
      ['an empty name', ''],
      ['a space', 'web search'],
      ['a dot', 'fs.read'],
      ['65 characters', 'a'.repeat(65)],
    ])('rejects a name with %s', (_case, name) => {
      const error = thrownBy(() => new ToolRegistry().register(toolNamed(name)));

      expect(error).toMatchObject({ code: 'invalid_tool_name' });
      expect((error as Error).message).toBe(
        `Tool name ${JSON.stringify(name)} is invalid: use 1 to 64 letters, digits, "_" or "-".`,
      );
    });

    it('accepts a name of letters, digits, "_" and "-" up to 64 characters', () => {
      const registry = new ToolRegistry();
      registry.register(toolNamed('Read-File_2'));
      registry.register(toolNamed('a'.repeat(64)));

      expect([registry.has('Read-File_2'), registry.has('a'.repeat(64))]).toEqual([true, true]);
    });

    it('rejects a tool without an execute function', () => {
      const noExecute = { name: 'broken', description: 'Broken', parameters: { type: 'object' } } as unknown as Tool;

      expect(() => new ToolRegistry().register(noExecute)).toThrow('Tool "broken" has no execute function.');
    });

    it('rejects a tool whose parameters do not describe an object', () => {
      const error = thrownBy(() => new ToolRegistry().register({ ...toolNamed('echo'), parameters: z.string() }));

      expect(AgentloopError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'invalid_tool_definition' });
    });

    // defineTool already refuses these; a Tool written by hand meets the same checks when registered.
    it('rejects a tool with a z.date() parameter, which no call from a model could satisfy', () => {
      const tool: Tool = { ...toolNamed('schedule'), parameters: z.object({ title: z.string(), when: z.date() }) };

      const error = thrownBy(() => new ToolRegistry().register(tool));

      expect(error).toMatchObject({ code: 'invalid_tool_definition' });
      expect((error as Error).message).toMatch(
        /^Tool "schedule": parameter "when" is z\.date\(\).*z\.iso\.datetime\(\)/,
      );
    });

    it.each([
      ['negative', -1, 'not -1'],
      ['NaN', Number.NaN, 'not NaN'],
      ['Infinity', Number.POSITIVE_INFINITY, 'not Infinity'],
      ['a string', '5000', 'not a string'],
    ])('rejects a tool whose timeoutMs is %s', (_case, timeoutMs, got) => {
      const tool = { ...toolNamed('slow'), timeoutMs } as unknown as Tool;

      const error = thrownBy(() => new ToolRegistry().register(tool));

      expect(error).toMatchObject({
        code: 'invalid_tool_definition',
        message: `Tool "slow": timeoutMs must be a finite number of milliseconds, 0 or more (0 never times out), ${got}.`,
      });
    });

    it('accepts a tool whose timeoutMs is 0, which never times out, or beyond the longest timer', () => {
      const registry = new ToolRegistry([
        { ...toolNamed('patient'), timeoutMs: 0 },
        { ...toolNamed('very_patient'), timeoutMs: 3e9 },
      ]);

      expect([registry.has('patient'), registry.has('very_patient')]).toEqual([true, true]);
    });

    describe('parameters that throw when read', () => {
      const hostile = new Proxy(
        {},
        {
          has: () => {
            throw new Error('has trap');
          },
          get: () => {
            throw new Error('get trap');
          },
        },
      );
      const withThrowingGetter = {
        type: 'object',
        get properties(): never {
          throw new TypeError('properties getter');
        },
      };
      const zodWithThrowingShape = z.object({ query: z.string() });
      Object.defineProperty(zodWithThrowingShape._zod.def, 'shape', {
        get: () => {
          throw new Error('shape getter');
        },
      });

      it.each([
        ['a Proxy whose traps throw', hostile, 'has trap'],
        ['a JSON Schema with a throwing getter', withThrowingGetter, 'properties getter'],
        ['a zod schema whose internals throw', zodWithThrowingShape, 'shape getter'],
      ])('rejects %s as an invalid definition naming the tool and the error', (_case, parameters, thrown) => {
        const tool: Tool = { ...toolNamed('search'), parameters: parameters as never };

        const error = thrownBy(() => new ToolRegistry().register(tool));

        expect(error).toBeInstanceOf(ToolDefinitionError);
        expect(error).toMatchObject({ code: 'invalid_tool_definition' });
        expect((error as Error).message).toBe(
          `Tool "search": reading its parameters threw "${thrown}"; pass a zod schema or a plain JSON Schema ` +
            'object whose fields can be read.',
        );
      });

      it('rejects a tool whose parameters getter throws, keeping what was thrown as the cause', () => {
        const cause = new Error('not loaded');
        const tool = {
          ...toolNamed('search'),
          get parameters(): never {
            throw cause;
          },
        };

        const error = thrownBy(() => new ToolRegistry().register(tool));

        expect(error).toMatchObject({ code: 'invalid_tool_definition', cause });
        expect((error as Error).message).toContain('Tool "search": reading its parameters threw "not loaded"');
      });
    });

    it('accepts a class instance that implements Tool', async () => {
      class WebSearchTool implements Tool<{ query: string }, string> {
        readonly name = 'web_search';
        readonly description = 'Search the web';
        readonly parameters = z.object({ query: z.string() });
        execute({ query }: { query: string }) {
          return `results for ${query}`;
        }
      }
      const registry = new ToolRegistry([new WebSearchTool()]);

      expect(registry.get('web_search')?.definition.inputSchema).toMatchObject({ required: ['query'] });
      expect(await registry.get('web_search')?.validate({ query: 'x' })).toStrictEqual({
        ok: true,
        value: { query: 'x' },
      });
    });
  });

  describe('unregister', () => {
    it('removes a tool and returns true', () => {
      const registry = new ToolRegistry([toolNamed('bash')]);

      expect(registry.unregister('bash')).toBe(true);
      expect(registry.has('bash')).toBe(false);
      expect(names(registry)).toEqual(LOOP_CONTROL);
    });

    it('returns false for a name that is not registered', () => {
      expect(new ToolRegistry().unregister('bash')).toBe(false);
    });
  });

  describe('definitions caching', () => {
    it('returns the same array while the registry does not change, so a prompt built from it can be cached', () => {
      const registry = new ToolRegistry([toolNamed('bash')]);

      expect(registry.definitions()).toBe(registry.definitions());
    });

    it('returns a new array after a tool is registered', () => {
      const registry = new ToolRegistry();
      const before = registry.definitions();
      registry.register(toolNamed('bash'));

      expect(registry.definitions()).not.toBe(before);
      expect(registry.definitions().map((definition) => definition.name)).toEqual([...LOOP_CONTROL, 'bash']);
    });

    it('returns a new array after a tool is removed', () => {
      const registry = new ToolRegistry([toolNamed('bash')]);
      const before = registry.definitions();
      registry.unregister('bash');

      expect(registry.definitions()).not.toBe(before);
      expect(registry.definitions().map((definition) => definition.name)).toEqual(LOOP_CONTROL);
    });

    it('keeps the array when unregister finds nothing to remove', () => {
      const registry = new ToolRegistry();
      const before = registry.definitions();
      registry.unregister('bash');

      expect(registry.definitions()).toBe(before);
    });

    it('keeps the array when a registration is rejected', () => {
      const registry = new ToolRegistry([toolNamed('bash')]);
      const before = registry.definitions();
      thrownBy(() => registry.register(toolNamed('bash')));

      expect(registry.definitions()).toBe(before);
    });
  });
});

describe('ToolRegistry and a tool’s server', () => {
  const serverTool = (name: string, server: Tool['server']): Tool => ({ ...toolNamed(name), server });

  it('keeps the server in the definition, and leaves it out for a local tool', () => {
    const registry = new ToolRegistry([
      serverTool('github__create_issue', { name: 'github', toolName: 'create_issue' }),
      toolNamed('local_tool'),
    ]);
    expect(registry.get('github__create_issue')?.definition.server).toEqual({
      name: 'github',
      toolName: 'create_issue',
    });
    expect(registry.get('local_tool')?.definition).not.toHaveProperty('server');
  });

  it('refuses a server named "local" or an empty tool name', () => {
    const local = thrownBy(() => new ToolRegistry([serverTool('a__b', { name: 'local', toolName: 'b' })]));
    expect((local as ToolDefinitionError).message).toContain('the name not "local"');
    const empty = thrownBy(() => new ToolRegistry([serverTool('a__b', { name: 'a', toolName: ' ' })]));
    expect((empty as ToolDefinitionError).code).toBe('invalid_tool_definition');
  });

  it('refuses two tools for the same tool of the same server', () => {
    const registry = new ToolRegistry([serverTool('a__b', { name: 'a', toolName: 'b' })]);
    const error = thrownBy(() => registry.register(serverTool('a__b_2', { name: 'a', toolName: 'b' })));
    expect((error as ToolDefinitionError).code).toBe('duplicate_tool');
    expect((error as ToolDefinitionError).message).toBe(
      'Tool "a__b_2" and tool "a__b" are both "b" of server "a"; a server\'s tool names must be unique.',
    );
  });
});

describe('ToolRegistry shared between agents', () => {
  it('gives registries of the same tool object the same entry, validator and definitions list', () => {
    const tool = toolNamed('search');
    const [first, second] = [new ToolRegistry([tool]), new ToolRegistry([tool])];
    expect(second.get('search')).toBe(first.get('search'));
    expect(second.get('search')?.validate).toBe(first.get('search')?.validate);
    expect(second.definitions()).toBe(first.definitions());
    expect(second.get('task_completion')).toBe(first.get('task_completion'));
  });

  it('gives a different tool set its own definitions list', () => {
    const search = toolNamed('search');
    const both = new ToolRegistry([search, toolNamed('fetch')]);
    const one = new ToolRegistry([search]);
    expect(one.definitions()).not.toBe(both.definitions());
    expect(one.definitions().map((definition) => definition.name)).toStrictEqual([...LOOP_CONTROL, 'search']);
    expect(both.definitions().map((definition) => definition.name)).toStrictEqual([...LOOP_CONTROL, 'fetch', 'search']);
  });

  it('never serves a stale definition of a tool changed since it was registered', () => {
    // An app may mutate its own tool object between registrations, readonly or not.
    const tool: { -readonly [Key in keyof Tool]: Tool[Key] } = { ...toolNamed('search') };
    const before = new ToolRegistry([tool]).get('search');
    tool.description = 'Searches the web';
    const after = new ToolRegistry([tool]).get('search');
    expect(after?.definition.description).toBe('Searches the web');
    expect(before?.definition.description).toBe('The search tool');
    tool.parameters = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };
    const changed = new ToolRegistry([tool]).get('search');
    expect(changed?.definition.inputSchema).toStrictEqual({
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    });
    expect(changed?.validate({ query: 'tea' })).toStrictEqual({ ok: true, value: { query: 'tea' } });
  });
});
