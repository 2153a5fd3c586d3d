import type { X2jOptions, XMLParser } from 'fast-xml-parser';
import { isLibraryNotLoaded } from '../libraries/lazy-library.js';
import { fastXmlParserLibrary } from '../libraries/tool-libraries.js';

/**
 * fast-xml-parser, loaded the first time an XML-element block is read (or by `prepareTools()`, or by an
 * agent that speaks XML when its run starts): only the XML protocol's element form needs it, and
 * importing it costs every process that loads the tools at start-up.
 */
function loadFastXmlParser(): typeof import('fast-xml-parser') {
  return fastXmlParserLibrary.get();
}

/** The fields of an XML-element block body, or what is wrong with its XML. */
export type XmlFields = { ok: true; fields: Record<string, unknown> } | { ok: false; problem: string };

/** A node of fast-xml-parser's `preserveOrder` output: `{ tag: children }`, `{ '#text': text }` or `{ '#cdata': [...] }`. */
type OrderedNode = Record<string, unknown>;

const ARGUMENT_KEYS = ['arguments', 'parameters', 'input'];
const CDATA_SECTION = /<!\[CDATA\[[\s\S]*?(?:\]\]>|$)/g;

const PARSER_OPTIONS: X2jOptions = {
  preserveOrder: true,
  ignoreAttributes: true,
  // Values stay strings: "3" may be a file name or a line of code as well as a number.
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
  cdataPropName: '#cdata',
  ignoreDeclaration: true,
  ignorePiTags: true,
};

/** XML text escaped for the parser, and whether it refers to entities beyond XML's own five. */
interface EscapedMarkup {
  xml: string;
  htmlEntities: boolean;
}

/** An `&` that starts anything but one of XML's own five entities (which every parser decodes). */
const NON_XML_ENTITY = /&(?!(?:lt|gt|amp|quot|apos);)/;

// One parser of each kind serves every block (a parser normalises its options when built). A parse with
// HTML entities builds their table anew, which costs four times what parsing a typical block does
// (fast-xml-parser 5.12: 37 µs against 8 µs); so only text that refers to an entity beyond XML's own
// five, or to a character by number, pays for it.
let xmlEntityParser: XMLParser | undefined;
let htmlEntityParser: XMLParser | undefined;

function parserFor(markup: EscapedMarkup): XMLParser {
  if (markup.htmlEntities) {
    htmlEntityParser ??= new (loadFastXmlParser().XMLParser)(PARSER_OPTIONS);
    return htmlEntityParser;
  }
  xmlEntityParser ??= new (loadFastXmlParser().XMLParser)({ ...PARSER_OPTIONS, htmlEntities: false });
  return xmlEntityParser;
}

/**
 * Reads a block body written as XML elements, e.g.
 * `<tool_name>read_file</tool_name><arguments><path>a.ts</path></arguments>`, into plain fields.
 * An element with child elements becomes an object (a repeated child an array); an element with text
 * becomes a string, decoded from JSON only when it clearly is a JSON object or array. CDATA is kept
 * exactly as written, other text is trimmed. When there is no arguments element, the other top-level
 * elements are the arguments (`<tool_name>x</tool_name><path>a.ts</path>`). Never throws, but in an app's
bundle where nothing loaded fast-xml-parser (`library_not_loaded`: `await prepareTools()`).
 */
export function readXmlFields(body: string): XmlFields {
  const escaped = escapeStrayMarkup(body);
  const parsed = parseXml({ ...escaped, xml: `<root>${escaped.xml}</root>` });
  if (!parsed.ok) return parsed;
  const fields = parsed.fields;
  if (ARGUMENT_KEYS.some((key) => Object.hasOwn(fields, key))) return { ok: true, fields };
  const nameKey = Object.hasOwn(fields, 'tool_name') ? 'tool_name' : 'name';
  const leftovers = Object.entries(fields).filter(([key]) => key !== nameKey && key !== 'server_name');
  if (leftovers.length === 0) return { ok: true, fields };
  return { ok: true, fields: { ...fields, arguments: Object.fromEntries(leftovers) } };
}

function parseXml(markup: EscapedMarkup): XmlFields {
  const { xml } = markup;
  try {
    const validation = loadFastXmlParser().XMLValidator.validate(xml, { allowBooleanAttributes: true });
    if (validation !== true) {
      const { msg, line } = validation.err;
      return { ok: false, problem: `${msg.replace(/\.$/, '')} (line ${line})` };
    }
    const document = parserFor(markup).parse(xml) as OrderedNode[];
    const root = document.find((node) => 'root' in node)?.root;
    const value = nodeValue(Array.isArray(root) ? (root as OrderedNode[]) : []);
    return { ok: true, fields: isRecord(value) ? value : {} };
  } catch (error) {
    // A bundled app that never loaded fast-xml-parser is told what to await, not shown as the model's fault.
    if (isLibraryNotLoaded(error)) throw error;
    // fast-xml-parser throws on what its validator lets through, e.g. a DOCTYPE whose entities expand too far.
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Escapes what models write unescaped in XML text: a bare `&` (`a && b`) and a `<` that cannot start
 * markup (`i < 10`). CDATA sections are left alone.
 */
function escapeStrayMarkup(xml: string): EscapedMarkup {
  let escaped = '';
  let htmlEntities = false;
  let last = 0;
  const escapeUpTo = (end: number) => {
    const text = escapeText(xml.slice(last, end));
    // Entities in CDATA are not decoded, so only text outside it can need the HTML table.
    htmlEntities ||= NON_XML_ENTITY.test(text);
    escaped += text;
  };
  for (const section of xml.matchAll(CDATA_SECTION)) {
    escapeUpTo(section.index);
    escaped += section[0];
    last = section.index + section[0].length;
  }
  escapeUpTo(xml.length);
  return { xml: escaped, htmlEntities };
}

function escapeText(text: string): string {
  return text.replace(/&(?!(?:[A-Za-z][\w.-]*|#\d+|#x[\dA-Fa-f]+);)/g, '&amp;').replace(/<(?![A-Za-z_:/!?])/g, '&lt;');
}

function nodeValue(children: readonly OrderedNode[]): unknown {
  const elements = new Map<string, unknown[]>();
  const texts: { text: string; cdata: boolean }[] = [];
  for (const node of children) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '#text') texts.push({ text: String(value), cdata: false });
      else if (key === '#cdata') texts.push({ text: cdataText(value), cdata: true });
      else if (key !== ':@') {
        const values = elements.get(key) ?? [];
        values.push(nodeValue(Array.isArray(value) ? (value as OrderedNode[]) : []));
        elements.set(key, values);
      }
    }
  }
  if (elements.size > 0) {
    // Text between child elements is indentation, not a value.
    return Object.fromEntries([...elements].map(([key, values]) => [key, values.length === 1 ? values[0] : values]));
  }
  if (texts.some((part) => part.cdata)) {
    // CDATA is how a model says "exactly this text": keep it, drop only the line breaks around it.
    return texts
      .filter((part) => part.cdata || part.text.trim() !== '')
      .map((part) => part.text)
      .join('');
  }
  return decodeIfClearlyJson(
    texts
      .map((part) => part.text)
      .join('')
      .trim(),
  );
}

function cdataText(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value.map((node: OrderedNode) => String(node['#text'] ?? '')).join('');
}

function decodeIfClearlyJson(text: string): unknown {
  if (!/^[[{]/.test(text)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
