import { defineTool } from '@agentloop/core';
import { z } from 'zod';

/** A calculator tool for end-to-end runs. */
export const calculatorTool = defineTool({
  name: 'calculator',
  description: 'Computes a op b',
  parameters: z.object({ a: z.number(), b: z.number(), op: z.enum(['add', 'multiply']) }),
  execute: ({ a, b, op }) => String(op === 'add' ? a + b : a * b),
});
