import type { McpPromptSummary } from './mcp-prompt.js';

/**
 * The arguments of `/server:prompt …` by name: positional ones in the prompt's declared order, or
 * `name=value` (either quoted with `"` or `'` to hold spaces). Throws an Error whose message says what was
 * wrong and how the command is written: a required argument missing, an unknown name, one too many.
 */
export function parsePromptArguments(text: string, prompt: McpPromptSummary, usage: string): Record<string, string> {
  const values: Record<string, string> = {};
  const declared = prompt.arguments.map((argument) => argument.name);
  let position = 0;
  for (const word of splitWords(text)) {
    const named = /^([\w.-]+)=(.*)$/s.exec(word.text);
    if (named && !word.quoted) {
      const [, name = '', value = ''] = named;
      if (!declared.includes(name)) {
        throw new Error(
          `${usage}: it has no argument "${name}"${declared.length > 0 ? `; its arguments are ${declared.join(', ')}` : ''}.`,
        );
      }
      values[name] = unquote(value);
      continue;
    }
    while (position < declared.length && (declared[position] as string) in values) position += 1;
    const name = declared[position];
    if (name === undefined) {
      throw new Error(`${usage}: one argument too many (${word.text}); quote a value that holds spaces.`);
    }
    values[name] = unquote(word.text);
    position += 1;
  }
  const missing = prompt.arguments.filter((argument) => argument.required && !(argument.name in values));
  if (missing.length > 0) {
    const names = missing.map((argument) => argument.name).join(', ');
    throw new Error(
      `${usage}: ${missing.length === 1 ? 'the argument' : 'the arguments'} ${names} ${missing.length === 1 ? 'is' : 'are'} required.`,
    );
  }
  return values;
}

/**
 * Words split at spaces; quotes (`"a b"`, `'a b'`) hold spaces within a word and are dropped. A word that is
 * quoted from its start is a value, never `name=value`.
 */
function splitWords(text: string): { text: string; quoted: boolean }[] {
  return [...text.matchAll(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g)].map(([word]) => ({
    text: word,
    quoted: word.startsWith('"') || word.startsWith("'"),
  }));
}

function unquote(value: string): string {
  return value.replace(
    /"([^"]*)"|'([^']*)'/g,
    (_match, double: string | undefined, single: string | undefined) => double ?? single ?? '',
  );
}
