import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { defineTool } from './define-tool.js';
import type { InferToolArguments, Tool, ToolContext } from './tool.js';

describe('defineTool argument inference', () => {
  it('infers the arguments from a zod 4 object schema', () => {
    defineTool({
      name: 'web_search',
      description: 'Search the web',
      parameters: z.object({ query: z.string(), limit: z.number() }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ query: string; limit: number }>();
        return '';
      },
    });
  });

  it('makes an optional field optional', () => {
    defineTool({
      name: 'web_search',
      description: 'Search the web',
      parameters: z.object({ query: z.string(), site: z.string().optional() }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ query: string; site?: string | undefined }>();
        return '';
      },
    });
  });

  it('makes a field with a default present in execute, since validation fills it in', () => {
    defineTool({
      name: 'web_search',
      description: 'Search the web',
      parameters: z.object({ query: z.string(), limit: z.number().default(10) }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ query: string; limit: number }>();
        return '';
      },
    });
  });

  it('infers nested objects, arrays and enums', () => {
    defineTool({
      name: 'place_order',
      description: 'Place an order',
      parameters: z.object({
        items: z.array(z.object({ name: z.string(), quantity: z.number() })),
        speed: z.enum(['standard', 'express']),
      }),
      execute: (args) => {
        expectTypeOf(args.items).toEqualTypeOf<{ name: string; quantity: number }[]>();
        expectTypeOf(args.speed).toEqualTypeOf<'standard' | 'express'>();
        return '';
      },
    });
  });

  it('infers the arguments from a zod 3 object schema', () => {
    defineTool({
      name: 'web_search',
      description: 'Search the web',
      parameters: z3.object({ query: z3.string(), limit: z3.number().default(10) }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ query: string; limit: number }>();
        return '';
      },
    });
  });

  it('types the arguments of a plain JSON Schema tool as Record<string, unknown>', () => {
    defineTool({
      name: 'read_file',
      description: 'Read a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        return '';
      },
    });
  });

  it('passes a ToolContext as the second parameter', () => {
    defineTool({
      name: 'web_search',
      description: 'Search the web',
      parameters: z.object({ query: z.string() }),
      execute: (_args, context) => {
        expectTypeOf(context).toEqualTypeOf<ToolContext>();
        expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
        return '';
      },
    });
  });

  it('makes reading a property the schema does not declare a type error', () => {
    defineTool({
      name: 'web_search',
      description: 'Search the web',
      parameters: z.object({ query: z.string() }),
      execute: (args) => {
        // @ts-expect-error `qeury` is not a parameter of this tool
        return args.qeury;
      },
    });
  });

  it('makes using a field as the wrong type a type error', () => {
    defineTool({
      name: 'web_search',
      description: 'Search the web',
      parameters: z.object({ limit: z.number() }),
      execute: (args) => {
        // @ts-expect-error `limit` is a number, not a string
        return args.limit.toUpperCase();
      },
    });
  });
});

describe('defineTool result type', () => {
  it('returns a Tool typed by the schema output and the execute result', () => {
    const tool = defineTool({
      name: 'count',
      description: 'Count',
      parameters: z.object({ text: z.string() }),
      execute: async ({ text }) => text.length,
    });

    expectTypeOf(tool).toEqualTypeOf<Tool<{ text: string }, number>>();
  });

  it('types execute of the returned tool so a wrong argument is a type error', () => {
    const tool = defineTool({
      name: 'count',
      description: 'Count',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => text.length,
    });

    expectTypeOf(tool.execute).parameter(0).toEqualTypeOf<{ text: string }>();
    // @ts-expect-error `text` must be a string
    tool.execute({ text: 1 }, {} as ToolContext);
  });
});

describe('InferToolArguments', () => {
  it('gives the output type of a zod schema', () => {
    const schema = z.object({ limit: z.number().default(10) });
    expectTypeOf<InferToolArguments<typeof schema>>().toEqualTypeOf<{ limit: number }>();
  });

  it('gives Record<string, unknown> for a JSON Schema object', () => {
    expectTypeOf<InferToolArguments<{ type: 'object' }>>().toEqualTypeOf<Record<string, unknown>>();
  });
});
