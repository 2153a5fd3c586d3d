import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { AgentloopError } from './errors/index.js';
import { runToolCall, stringifyToolResult } from './run-tool-call.js';
import type { ToolContext } from './tool.js';
import { ToolRegistry } from './tool-registry.js';
import { isToolResult, toolResult } from './tool-result.js';

const PNG = Buffer.alloc(1500).toString('base64');

const context: ToolContext = {
  signal: new AbortController().signal,
  sessionId: 'session-1',
  workspace: '/workspace',
  toolCallId: 'call-1',
  reportProgress: () => {},
};

function run(execute: () => unknown) {
  const registry = new ToolRegistry([
    defineTool({ name: 'shot', description: 'Screenshot', parameters: z.object({}), execute }),
  ]);
  return runToolCall(registry, { toolCallId: 'call-1', toolName: 'shot', arguments: {} }, context);
}

describe('toolResult', () => {
  it('keeps the images and describes each after the text', () => {
    const result = toolResult({ text: 'The page:', images: [{ mediaType: 'image/png', data: PNG }] });
    expect(isToolResult(result)).toBe(true);
    expect(result.text).toBe('The page:\n[image: image/png, 1.5 KB]');
    expect(result.images).toStrictEqual([{ mediaType: 'image/png', data: PNG }]);
  });

  it('leaves the text as it is when told the text describes the images', () => {
    const result = toolResult({
      text: 'a chart',
      images: [{ mediaType: 'image/png', data: PNG }],
      describeImages: false,
    });
    expect(result.text).toBe('a chart');
  });

  it('shows as its text and images in JSON, without the brand', () => {
    const result = toolResult({ text: 'x', images: [{ mediaType: 'image/gif', data: 'R0lGOA==' }] });
    expect(JSON.parse(JSON.stringify(result))).toStrictEqual({
      text: 'x\n[image: image/gif, 4 bytes]',
      images: [{ mediaType: 'image/gif', data: 'R0lGOA==' }],
    });
  });

  it('rejects an image that is not an image type or has no base64 data, saying what to give', () => {
    expect(() => toolResult({ images: [{ mediaType: 'text/plain', data: PNG }] })).toThrow(
      'toolResult: image 1 has the media type "text/plain"; give an image type such as \'image/png\'.',
    );
    expect(() => toolResult({ images: [{ mediaType: 'image/png', data: `data:image/png;base64,${PNG}` }] })).toThrow(
      /image 1 \(image\/png\) has no base64 data; give the bytes as base64, without a 'data:' prefix/,
    );
    try {
      toolResult({ images: [{ mediaType: 'image/png', data: '' }] });
      expect.unreachable();
    } catch (error) {
      expect(AgentloopError.isInstance(error) && error.code).toBe('invalid_tool_result');
    }
  });

  it('does not take a plain object with text and images fields for one', () => {
    const lookalike = { text: 'x', images: [{ mediaType: 'image/png', data: PNG }] };
    expect(isToolResult(lookalike)).toBe(false);
    expect(stringifyToolResult(lookalike)).toBe(JSON.stringify(lookalike));
  });
});

describe('runToolCall with a toolResult', () => {
  it('gives the text as content and the images beside it', async () => {
    const value = toolResult({ text: 'The page:', images: [{ mediaType: 'image/png', data: PNG }] });
    const outcome = await run(async () => value);
    expect(outcome).toStrictEqual({
      status: 'ok',
      toolCallId: 'call-1',
      toolName: 'shot',
      content: 'The page:\n[image: image/png, 1.5 KB]',
      images: [{ mediaType: 'image/png', data: PNG }],
      value,
      arguments: {},
    });
  });

  it('gives no images field for a result without images, or for a plain object', async () => {
    expect(await run(() => toolResult({ text: 'nothing to show' }))).not.toHaveProperty('images');
    expect(await run(() => ({ images: [{ mediaType: 'image/png', data: PNG }] }))).not.toHaveProperty('images');
  });

  it('fails the call, with the reason for the model, when the tool builds an invalid one', async () => {
    const outcome = await run(() => toolResult({ images: [{ mediaType: 'png', data: PNG }] }));
    expect(outcome.status).toBe('error');
    expect(outcome.content).toContain("give an image type such as 'image/png'");
  });
});
