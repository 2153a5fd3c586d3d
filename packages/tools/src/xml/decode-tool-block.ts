import { type ParsedArguments, parseToolArguments } from '../tool-arguments.js';
import { stripCodeFence } from './code-fence.js';
import { readXmlFields } from './read-xml-fields.js';

/** A tool block's body decoded into a call, or the reason it could not be, written for the model. */
export type DecodedToolBlock =
  | { ok: true; serverName: string; toolName: string; arguments: unknown; repaired: boolean }
  | { ok: false; reason: string };

/** The shape the prompt asks for, quoted in every error so that the model can copy it. */
const TEMPLATE = '{"server_name": "local", "tool_name": "<tool name>", "arguments": {...}}';

/**
 * Decodes the text between a block's tags. It accepts the protocol's JSON object and what real models
 * write instead: `name` for `tool_name`, `parameters` or `input` for `arguments`, arguments as a JSON
 * string, no `server_name` (meaning `"local"`), a code fence around the body, and XML elements instead
 * of JSON. Broken JSON gets one repair attempt. Never throws (but for `library_not_loaded` in an app's
 * bundle, see `prepareTools`): a body that cannot be decoded completely
 * comes back as a reason, so that no half-decoded call is ever run.
 */
export function decodeToolBlock(body: string, tagName = 'tool'): DecodedToolBlock {
  const block = `<${tagName}> block`;
  const content = stripCodeFence(body);
  if (content === '') return failure(`The ${block} is empty. Put one JSON object in it: ${TEMPLATE}.`);
  if (content.startsWith('<')) {
    const xml = readXmlFields(content);
    if (!xml.ok) {
      return failure(
        `The ${block} is not well-formed XML: ${xml.problem}. Close every element and wrap code in ` +
          `<![CDATA[ ... ]]>, or write the block as one JSON object: ${TEMPLATE}.`,
      );
    }
    return toToolCall(xml.fields, false, block);
  }
  // The parser decodes only a block that ended (it reports one cut off by the end of the stream itself),
  // so a quote or brace missing here is sloppiness to repair.
  const parsed = parseToolArguments(content, { whole: true });
  if (!parsed.ok) {
    if (parsed.problem !== 'invalid_json') return failure(`The ${block} was not run: ${parsed.message}.`);
    return failure(
      `The ${block} is not valid JSON (${jsonProblem(content)}). Write it as one JSON object: ${TEMPLATE}.`,
    );
  }
  if (!isRecord(parsed.value)) {
    return failure(`The ${block} must hold one JSON object, not ${describe(parsed.value)}. Write it as: ${TEMPLATE}.`);
  }
  return toToolCall(parsed.value, parsed.repaired, block);
}

function toToolCall(fields: Record<string, unknown>, repaired: boolean, block: string): DecodedToolBlock {
  const toolName = nonEmptyString(fields.tool_name) ?? nonEmptyString(fields.name);
  if (toolName === undefined) {
    return failure(`The ${block} has no "tool_name". Name the tool to call, as in: ${TEMPLATE}.`);
  }
  const serverName = nonEmptyString(fields.server_name) ?? 'local';
  const given = [fields.arguments, fields.parameters, fields.input].find(
    (value) => value !== undefined && value !== null,
  );
  let decoded: ParsedArguments = { ok: true, value: given ?? {}, repaired: false };
  // Models that learned OpenAI's format send the arguments as a JSON-encoded string.
  if (typeof given === 'string') decoded = parseToolArguments(given, { whole: true });
  if (!decoded.ok) {
    return failure(`The ${block} for tool "${toolName}" has arguments that cannot be decoded: ${decoded.message}.`);
  }
  if (!isRecord(decoded.value)) {
    return failure(
      `The "arguments" of the ${block} for tool "${toolName}" must be one JSON object of named values, ` +
        `not ${describe(decoded.value)}.`,
    );
  }
  return { ok: true, serverName, toolName, arguments: decoded.value, repaired: repaired || decoded.repaired };
}

function nonEmptyString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** JSON.parse's own words for what is wrong; only called once decoding (and repair) has failed. */
function jsonProblem(text: string): string {
  try {
    JSON.parse(text);
    return 'unknown problem';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function failure(reason: string): DecodedToolBlock {
  return { ok: false, reason };
}
