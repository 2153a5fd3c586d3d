export type {
  XmlParseErrorEvent,
  XmlParserEvent,
  XmlTextEvent,
  XmlThinkingContentEvent,
  XmlThinkingEndEvent,
  XmlThinkingStartEvent,
  XmlToolCallEvent,
  XmlToolNameEvent,
  XmlToolStartEvent,
} from './xml-parser-event.js';
export type { XmlToolParserOptions } from './xml-tool-parser.js';
export { XmlToolParser } from './xml-tool-parser.js';
