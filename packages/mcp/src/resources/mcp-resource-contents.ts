import type { ToolResult } from '@agentloop/tools';
import type { ContentBlock, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { base64Bytes, formatBytes } from '../results/format-bytes.js';
import { toToolValue } from '../results/to-tool-value.js';
import {
  DEFAULT_MAX_RESOURCE_BYTES,
  type ResourcePartPlace,
  type ResourceTextWindow,
  takeResourceText,
  withNote,
} from './cap-resource-text.js';

/**
 * The largest image of a resource given to the model as an image: Anthropic's API refuses images past 5 MB,
 * and a larger one would fail the whole request. A larger one is described by its type and size.
 */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

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
 * What the model (or a turn a user attached the resource to) gets of a resource: its text, from
 * `window.startLine` and at most `window.maxBytes` of it (64 KB by default, see capResourceText), with a
 * note saying what was cut and how to read on; an image as an image (and `[image: image/png, 1.4 KB]` in
 * the text, for text-only paths), or its type and size when it is larger than a provider takes; other
 * binary data as a short note of its type and size, never its base64. A resource in several parts gives
 * each under its URI, from part `window.part` on, and `maxBytes` holds for their text together: where it
 * runs out, the rest waits for a read from the part and line (and character) the note names. Never throws.
 */
export function resourceContentsValue(
  contents: readonly McpResourceContents[],
  window: ResourceTextWindow = {},
): string | ToolResult {
  if (contents.length === 0) return '(the resource is empty)';
  const firstPart = window.part ?? 1;
  const parts = contents.length;
  if (firstPart > parts) {
    return `[part ${firstPart} is past the end of the resource: it has ${parts} part${parts === 1 ? '' : 's'}.]`;
  }
  const several = parts > 1;
  const maxBytes = window.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
  // One budget for all the text parts: a server that splits a large resource must not get past the cap.
  let left = maxBytes;
  let givenText = false;
  const blocks: ContentBlock[] = [];
  for (let index = firstPart - 1; index < parts; index += 1) {
    const part = contents[index] as McpResourceContents;
    const place = { part: index + 1, parts };
    if (part.text !== undefined) {
      const starting = index === firstPart - 1;
      const startLine = starting ? (window.startLine ?? 1) : 1;
      const startChar = starting ? (window.startChar ?? 1) : 1;
      const taken = takeResourceText(part.text, { startLine, startChar, maxBytes: left, cutInsideLine: !givenText });
      if (givenText && taken.bytes === 0 && !taken.pastEnd && taken.lines.length > 0) {
        blocks.push({ type: 'text', text: partsLeftNote(place, maxBytes) });
        break;
      }
      const text = withNote(taken, { maxBytes, subject: several ? place : undefined });
      blocks.push({ type: 'text', text: several ? `[resource <${part.uri}>]\n${text}` : text });
      givenText = true;
      left -= taken.bytes;
      if (taken.pastEnd || taken.nextChar !== undefined || taken.lastLine < taken.lines.length) break;
      continue;
    }
    blocks.push(binaryBlock(part));
  }
  return toToolValue({ content: blocks });
}

function binaryBlock(part: McpResourceContents): ContentBlock {
  const mimeType = part.mimeType ?? 'application/octet-stream';
  if (part.blob && mimeType.startsWith('image/')) {
    const bytes = base64Bytes(part.blob);
    if (bytes <= MAX_IMAGE_BYTES) return { type: 'image', data: part.blob, mimeType };
    return {
      type: 'text',
      text: `[resource <${part.uri}>, ${mimeType}, ${formatBytes(bytes)}: not attached, an image may be at most ${formatBytes(MAX_IMAGE_BYTES)}]`,
    };
  }
  return { type: 'resource', resource: { uri: part.uri, mimeType, blob: part.blob ?? '' } };
}

// The parts before gave all the text there was room for: the next one waits for the next read.
function partsLeftNote(place: ResourcePartPlace, maxBytes: number): string {
  const rest = place.part === place.parts ? `part ${place.part}` : `parts ${place.part}-${place.parts}`;
  return `[${rest} of the resource's ${place.parts} not given: its parts give ${formatBytes(maxBytes)} of text at once; read on with part ${place.part}.]`;
}

/** The text of `resourceContentsValue`, for where only text goes (a turn's input). Never throws. */
export function resourceContentsText(
  contents: readonly McpResourceContents[],
  window: ResourceTextWindow = {},
): string {
  const value = resourceContentsValue(contents, window);
  return typeof value === 'string' ? value : value.text;
}
