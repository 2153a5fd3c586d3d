import type { CallToolResult, ContentBlock, EmbeddedResource } from '@modelcontextprotocol/sdk/types.js';
import { base64Bytes, formatBytes } from './format-bytes.js';

/**
 * The text the model sees for an MCP tool's result, which is all that text-only paths (OpenAI Chat
 * Completions, the XML protocol) show of it, so what is not text is described, never inlined:
 * - `text`: as it is; several blocks are joined by blank lines;
 * - `image` and `audio`: `[image: image/png, 1.4 KB]` (base64 would cost the model tokens and tell it
 *   nothing); images also travel as images beside the text (see toToolValue);
 * - `resource_link`: its name, URI, type and description, so the model can name it or read it with
 *   another tool;
 * - an embedded `resource`: its URI and type, then its text, or its size when it is binary;
 * - `structuredContent`: as JSON when no text block came with it; the specification asks a server to send
 *   its text form too, and the model needs it only once.
 * Never throws.
 */
export function formatCallResult(result: CallToolResult): string {
  const content: readonly ContentBlock[] = Array.isArray(result.content) ? result.content : [];
  const parts = content.map(describeBlock);
  const structured = result.structuredContent;
  if (structured !== undefined && structured !== null && !content.some((block) => block.type === 'text')) {
    parts.push(`Structured content: ${JSON.stringify(structured)}`);
  }
  return parts.length === 0 ? '(no output)' : parts.join('\n\n');
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}]`;
    case 'resource_link': {
      const details = [block.mimeType, block.description].filter(Boolean).join(', ');
      return `[resource link: ${block.name} <${block.uri}>${details ? ` (${details})` : ''}]`;
    }
    case 'resource':
      return describeResource(block.resource);
    default:
      return `[${(block as { type?: unknown }).type ?? 'unknown'} content]`;
  }
}

function describeResource(resource: EmbeddedResource['resource']): string {
  const mime = resource.mimeType ? `, ${resource.mimeType}` : '';
  if ('text' in resource && typeof resource.text === 'string')
    return `[resource <${resource.uri}>${mime}]\n${resource.text}`;
  const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
  return `[resource <${resource.uri}>${mime}, ${formatBytes(base64Bytes(blob))} of binary data]`;
}
