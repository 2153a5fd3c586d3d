import { defineTool } from '@agentloop/core';

/** The loop's one working tool. */
export const addTool = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  execute: ({ a, b }) => String(a + b),
});
