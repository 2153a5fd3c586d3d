import { defineTool } from '@agentloop/core';
import { z } from 'zod';

const operations = {
  add: (a: number, b: number) => a + b,
  subtract: (a: number, b: number) => a - b,
  multiply: (a: number, b: number) => a * b,
  divide: (a: number, b: number) => a / b,
  power: (a: number, b: number) => a ** b,
} as const;

/** Exact arithmetic on two numbers, so the model does not have to do it in its head. */
export const calculatorTool = defineTool({
  name: 'calculator',
  description: 'Compute a op b for two numbers. Operations: add, subtract, multiply, divide, power.',
  parameters: z.object({
    a: z.number().describe('The first operand'),
    b: z.number().describe('The second operand'),
    operation: z.enum(['add', 'subtract', 'multiply', 'divide', 'power']),
  }),
  execute: ({ a, b, operation }) => {
    if (operation === 'divide' && b === 0) throw new Error('Division by zero; check the operands.');
    return operations[operation](a, b);
  },
});
