import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';

/**
 * A prompt's content as the agent's input text: text as it is, a linked resource (a file the user
 * mentioned) as its path for the model to read, an embedded resource (the text of a file or selection the
 * editor attached, or an MCP server's resource) as that text in a `<context>` block named by its path, a
 * `</context` in the text escaped so that it cannot end the block. Images and audio are refused
 * with an invalid-params error: the executor does not advertise them.
 */
export function promptText(prompt: readonly ContentBlock[]): string {
  const parts = prompt.map((block) => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'resource_link':
        return `@${pathOf(block.uri)}`;
      case 'resource': {
        const { resource } = block;
        if (!('text' in resource)) return `@${pathOf(resource.uri)}`;
        const path = escapeAttribute(pathOf(resource.uri));
        return `\n<context path="${path}">\n${escapeBlockEnd(resource.text)}\n</context>\n`;
      }
      default:
        throw RequestError.invalidParams(
          { type: block.type },
          `${block.type} content is not supported: agentloop takes text, resource links and embedded text resources`,
        );
    }
  });
  return parts.join('');
}

// `file:///home/me/app/src/a.ts` → `/home/me/app/src/a.ts`; other URIs as they are.
function pathOf(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/**
 * The text with every `</context` (in any case or spacing) written as `&lt;/context`: the text is a file's or
 * a server's, and a closing tag in it would end its block and let it write beside it as the user.
 */
function escapeBlockEnd(text: string): string {
  return text.replace(/<(?=\s*\/\s*context)/gi, '&lt;');
}

// A path is written into a quoted attribute: a `"` in it would end the attribute.
function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
