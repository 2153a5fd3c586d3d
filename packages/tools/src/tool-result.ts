import type { ToolResultImage } from '@agentloop/spec';
import { AgentloopError, describeToolResultImage } from '@agentloop/spec';

// A tool package depends on @agentloop/tools alone, so the image's type is re-exported here.
export type { ToolResultImage };

const TOOL_RESULT = Symbol.for('@agentloop/tools.toolResult');

/**
 * A tool's result with images beside its text, made by `toolResult`. It carries a hidden brand (a
 * registered symbol, so that two copies of this package agree), so that a tool returning a plain object
 * that happens to have `text` and `images` fields still has it sent as JSON.
 */
export interface ToolResult {
  /** What the model reads: the text given, then a line describing each image unless told otherwise. */
  readonly text: string;
  /** The images, in order. */
  readonly images: readonly ToolResultImage[];
}

/** What `toolResult` takes. */
export interface ToolResultInit {
  /** The result's text. Default: none. */
  text?: string;
  /** Images to return: `{ mediaType: 'image/png', data: <base64> }`. */
  images?: readonly ToolResultImage[];
  /**
   * Whether to add a line per image (`[image: image/png, 1.4 KB]`) after the text, which is all a model
   * reached through a text-only path (OpenAI Chat Completions, the XML protocol) sees of them. Set it to
   * false when the text describes the images already. Default true.
   */
  describeImages?: boolean;
}

/**
 * A tool result that carries images, for a tool's `execute` to return:
 * `return toolResult({ text: 'The page:', images: [{ mediaType: 'image/png', data }] })`. Providers that
 * take images in tool results (Anthropic, OpenAI Responses) send them as images; the others send the text,
 * which describes them. Throws an AgentloopError (`invalid_tool_result`) when an image is not an
 * `image/...` media type with non-empty base64 data.
 */
export function toolResult(init: ToolResultInit): ToolResult {
  const images = [...(init.images ?? [])].map(checkedImage);
  const descriptions = init.describeImages === false ? [] : images.map(describeToolResultImage);
  const text = [init.text ?? '', ...descriptions].filter((line) => line !== '').join('\n');
  const result = { text, images: Object.freeze(images) };
  // Not enumerable: the value also reaches events and logs, where JSON shows its text and images alone.
  Object.defineProperty(result, TOOL_RESULT, { value: true });
  return Object.freeze(result);
}

/** True for a value made by `toolResult`. */
export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_RESULT] === true;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function checkedImage(image: ToolResultImage, index: number): ToolResultImage {
  const where = `toolResult: image ${index + 1}`;
  if (typeof image !== 'object' || image === null)
    throw invalid(`${where} is not an object; pass { mediaType: 'image/png', data: '<base64>' }.`);
  const { mediaType, data } = image;
  if (typeof mediaType !== 'string' || !/^image\/[\w.+-]+$/.test(mediaType))
    throw invalid(`${where} has the media type ${JSON.stringify(mediaType)}; give an image type such as 'image/png'.`);
  if (typeof data !== 'string' || data === '' || data.startsWith('data:') || !BASE64.test(data))
    throw invalid(`${where} (${mediaType}) has no base64 data; give the bytes as base64, without a 'data:' prefix.`);
  return { mediaType, data };
}

function invalid(message: string): AgentloopError {
  return new AgentloopError(message, { code: 'invalid_tool_result' });
}
