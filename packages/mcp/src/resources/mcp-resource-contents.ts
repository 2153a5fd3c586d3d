import type { ToolResult } from '@agentloop/tools';
import type { ContentBlock, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { toToolValue } from '../results/to-tool-value.js';

/** One part of a resource a server read: its text, or its bytes in base64. */
export interface McpResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  /** The content, for a text resource. */
  readonly text?: string;
  /** The content in base64, for a binary resource. */
  readonly blob?: string;
}

/** A `resources/read` result's contents in the package's own shape. Never throws. */
export function toResourceContents(contents: ReadResourceResult['contents']): McpResourceContents[] {
  return contents.map((part) => ({
    uri: part.uri,
    ...(part.mimeType ? { mimeType: part.mimeType } : {}),
    ...('text' in part && typeof part.text === 'string' ? { text: part.text } : {}),
    ...('blob' in part && typeof part.blob === 'string' ? { blob: part.blob } : {}),
  }));
}

/**
 * What the model (or a turn a user attached the resource to) gets of a resource: its text as it is; an
 * image as an image (and `[image: image/png, 1.4 KB]` in the text, for text-only paths); other binary
 * data as a short note of its type and size, never its base64. A resource in several parts gives each
 * under its URI. Never throws.
 */
export function resourceContentsValue(contents: readonly McpResourceContents[]): string | ToolResult {
  if (contents.length === 0) return '(the resource is empty)';
  const several = contents.length > 1;
  const blocks: ContentBlock[] = contents.map((part) => {
    if (part.text !== undefined) {
      return { type: 'text', text: several ? `[resource <${part.uri}>]\n${part.text}` : part.text };
    }
    const mimeType = part.mimeType ?? 'application/octet-stream';
    if (part.blob && mimeType.startsWith('image/')) return { type: 'image', data: part.blob, mimeType };
    return { type: 'resource', resource: { uri: part.uri, mimeType, blob: part.blob ?? '' } };
  });
  return toToolValue({ content: blocks });
}

/** The text of `resourceContentsValue`, for where only text goes (a turn's input). Never throws. */
export function resourceContentsText(contents: readonly McpResourceContents[]): string {
  const value = resourceContentsValue(contents);
  return typeof value === 'string' ? value : value.text;
}
