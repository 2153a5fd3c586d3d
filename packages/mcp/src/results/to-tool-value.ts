import type { ToolResult, ToolResultImage } from '@agentloop/tools';
import { toolResult } from '@agentloop/tools';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { formatCallResult } from './format-call-result.js';

/**
 * What an MCP tool call gives the loop: the text of `formatCallResult`, and, when the result holds
 * images, a `toolResult` that also keeps them as images, for the providers that take them in tool
 * results (Anthropic, OpenAI Responses). The text already describes each image where it stood among the
 * blocks, which is all a text-only path (OpenAI Chat Completions, the XML protocol) shows. Audio is
 * described only: no provider takes it in a tool result. Never throws.
 */
export function toToolValue(result: CallToolResult): string | ToolResult {
  const text = formatCallResult(result);
  const images = imagesOf(result);
  if (images.length === 0) return text;
  try {
    return toolResult({ text, images, describeImages: false });
  } catch {
    // Data that is not base64 after all: the description in the text stands in for the images.
    return text;
  }
}

function imagesOf(result: CallToolResult): ToolResultImage[] {
  const content: readonly ContentBlock[] = Array.isArray(result.content) ? result.content : [];
  const images: ToolResultImage[] = [];
  for (const block of content) {
    if (block.type !== 'image' || typeof block.data !== 'string' || block.data === '') continue;
    if (typeof block.mimeType !== 'string' || !block.mimeType.startsWith('image/')) continue;
    images.push({ mediaType: block.mimeType, data: block.data });
  }
  return images;
}
