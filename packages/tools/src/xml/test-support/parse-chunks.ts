import type { XmlParserEvent } from '../xml-parser-event.js';
import { XmlToolParser, type XmlToolParserOptions } from '../xml-tool-parser.js';

/** Feeds `chunks` to a new parser, then flushes it; returns every event. */
export function parseChunks(chunks: readonly string[], options?: XmlToolParserOptions): XmlParserEvent[] {
  const parser = new XmlToolParser(options);
  const events = chunks.flatMap((chunk) => parser.feed(chunk));
  return [...events, ...parser.flush()];
}

/** Parses `text` as one chunk, with adjacent text and thinking events merged. */
export function parseWhole(text: string, options?: XmlToolParserOptions): XmlParserEvent[] {
  return mergeAdjacent(parseChunks([text], options));
}

/** Parses `text` one character per chunk, with adjacent text and thinking events merged. */
export function parseByCharacter(text: string, options?: XmlToolParserOptions): XmlParserEvent[] {
  return mergeAdjacent(parseChunks([...text], options));
}

/** Merges adjacent `text` events and adjacent `thinking-content` events, which chunking may split. */
export function mergeAdjacent(events: readonly XmlParserEvent[]): XmlParserEvent[] {
  const merged: XmlParserEvent[] = [];
  for (const event of events) {
    const last = merged.at(-1);
    if (last?.type === 'text' && event.type === 'text')
      merged[merged.length - 1] = { type: 'text', text: last.text + event.text };
    else if (last?.type === 'thinking-content' && event.type === 'thinking-content') {
      merged[merged.length - 1] = { type: 'thinking-content', text: last.text + event.text };
    } else merged.push(event);
  }
  return merged;
}
