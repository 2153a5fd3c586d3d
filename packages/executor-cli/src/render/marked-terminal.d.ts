// marked-terminal ships no types; this is the one function the CLI uses.
declare module 'marked-terminal' {
  import type { MarkedExtension } from 'marked';
  export function markedTerminal(
    options?: Record<string, unknown>,
    highlightOptions?: Record<string, unknown>,
  ): MarkedExtension;
}
