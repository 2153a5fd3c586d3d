import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';

/**
 * A prompt's content as the agent's input text: text as it is, a linked resource (a file the user
 * mentioned) as its path for the model to read, an embedded resource (the text of a file or selection the
 * editor attached) as that text in a `<context>` block named by its path. Images and audio are refused
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
        if ('text' in resource) return `\n<context path="${pathOf(resource.uri)}">\n${resource.text}\n</context>\n`;
        return `@${pathOf(resource.uri)}`;
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
