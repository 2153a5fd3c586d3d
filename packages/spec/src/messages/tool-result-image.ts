/**
 * An image a tool returned (a screenshot, a chart, an MCP server's image content). It travels beside the
 * result's text: providers that take images in tool results (Anthropic, OpenAI Responses) send it as an
 * image; text-only paths (OpenAI Chat Completions, the XML protocol) show only the text, which therefore
 * describes it.
 */
export interface ToolResultImage {
  /** The image's media type, e.g. `image/png`. */
  mediaType: string;
  /** The image's bytes, base64-encoded, without a `data:` prefix. */
  data: string;
}

/**
 * The text that stands in for an image where images cannot go, e.g. `[image: image/png, 1.4 KB]`: its
 * type and decoded size (base64 would cost the model tokens and tell it nothing).
 */
export function describeToolResultImage(image: ToolResultImage): string {
  return `[image: ${image.mediaType}, ${formatBytes(base64Bytes(image.data))}]`;
}

/** The size of base64 data once decoded. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
