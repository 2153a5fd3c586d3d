/** What readline's completer answers: the candidates, and the text before the cursor they would replace. */
export type Completion = [candidates: string[], word: string];

/** Completes the word before the cursor (`/help`, `@server:uri`, `$skill`). Never rejects. */
export type PromptCompleter = (lineBeforeCursor: string) => Promise<Completion>;

/** One MCP server, as completion sees it. */
export interface CompletionServer {
  /** Its name as configured: `@name:` and `/name:prompt`. */
  readonly name: string;
  /** Its prompts' names. */
  readonly prompts: readonly string[];
  /** Its listed resources' URIs. */
  readonly resources: readonly string[];
  /** Its resource templates (RFC 6570, `file:///{path}`): shown, never filled in. */
  readonly resourceTemplates: readonly string[];
}

/** Where the candidates come from. */
export interface CompletionSources {
  /** The slash commands' names and aliases, without the slash. */
  readonly commands: readonly string[];
  /** The skills' names, for `$name`; may wait for the agent to be made. */
  skills(): Promise<readonly string[]>;
  /** The MCP servers with their prompts and resources; may wait for the agent to be made. */
  servers(): Promise<readonly CompletionServer[]>;
}

/** Options of createPromptCompleter. */
export interface PromptCompleterOptions {
  /** How long Tab waits for the skills or the servers before it completes without them, in ms. Default 300. */
  readonly timeoutMs?: number;
}

/** How long Tab waits for a source by default: readline takes no keys while a completion is pending. */
export const DEFAULT_COMPLETION_TIMEOUT_MS = 300;

// The shapes the session accepts: a name that would not parse as a command, a mention or a skill could
// be completed but would then not work.
const COMMAND_NAME = /^[\w?:-]+$/;
const SERVER_NAME = /^[\w-]{1,40}$/;
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A completer for the prompt's Tab key, in the form readline's `completer` option takes once wrapped
 * (see TerminalLineReader). At the word before the cursor it completes a slash command at the start of
 * the line (the commands, then the MCP prompts as `/server:prompt`), an `@server:uri` resource mention
 * anywhere (server names, then the server's listed resources; its templates are listed but only their
 * literal start is ever inserted), and a `$skill`. A word that is none of these gets nothing, as does a
 * source that takes longer than `timeoutMs` or fails: Tab must never hold up the prompt.
 */
export function createPromptCompleter(
  sources: CompletionSources,
  options: PromptCompleterOptions = {},
): PromptCompleter {
  const timeoutMs = options.timeoutMs ?? DEFAULT_COMPLETION_TIMEOUT_MS;
  const servers = () => within(sources.servers(), timeoutMs, []);
  return async (line) => {
    const word = /\S*$/.exec(line)?.[0] ?? '';
    const firstWord = line.trimStart() === word;
    if (word.startsWith('/') && firstWord) {
      const prompts = (await servers()).flatMap((server) => server.prompts.map((name) => `${server.name}:${name}`));
      const names = [...sources.commands, ...prompts].filter((name) => COMMAND_NAME.test(name));
      const lower = word.toLowerCase();
      return [finished(unique(names.map((name) => `/${name}`)).filter((c) => c.toLowerCase().startsWith(lower))), word];
    }
    if (word.startsWith('@')) return [mentionCandidates(word, await servers()), word];
    if (word.startsWith('$')) {
      const skills = (await within(sources.skills(), timeoutMs, [])).filter((name) => SKILL_NAME.test(name));
      return [finished(unique(skills.map((name) => `$${name}`)).filter((c) => c.startsWith(word))), word];
    }
    return [[], word];
  };
}

/** `@name:` for a word without a colon; the server's resources after `@name:`. */
function mentionCandidates(word: string, servers: readonly CompletionServer[]): string[] {
  const colon = word.indexOf(':');
  if (colon < 0) {
    const names = servers.map((server) => server.name).filter((name) => SERVER_NAME.test(name));
    // No space after `@name:`: the URI follows.
    return unique(names.map((name) => `@${name}:`)).filter((candidate) => candidate.startsWith(word));
  }
  const server = servers.find((candidate) => candidate.name === word.slice(1, colon));
  if (!server) return [];
  const prefix = `@${server.name}:`;
  // A URI with a space cannot be mentioned: the mention ends at the first space.
  const resources = server.resources
    .filter((uri) => !/\s/.test(uri))
    .map((uri) => `${prefix}${uri}`)
    .filter((candidate) => candidate.startsWith(word));
  const templates = server.resourceTemplates
    .map((template) => `${prefix}${template}`)
    .filter((candidate) => candidate.startsWith(word));
  if (templates.length === 0) return finished(unique(resources));
  const candidates = [...unique(resources), ...unique(templates)];
  // readline fills in the matches' common start, which must stop at a template's first brace: that part
  // is the user's to write. The start itself is then offered too, so that readline goes no further than
  // it, and the next Tab lists the rest.
  const common = commonStart(candidates);
  const brace = common.indexOf('{', word.length);
  if (brace < 0) return candidates;
  const literal = common.slice(0, brace);
  return literal.length > word.length ? [literal] : [...candidates, literal];
}

function commonStart(candidates: readonly string[]): string {
  let common = candidates[0] ?? '';
  for (const candidate of candidates) {
    while (!candidate.startsWith(common)) common = common.slice(0, -1);
  }
  return common;
}

/** A single match is complete: a space after it, ready for what follows. */
function finished(candidates: string[]): string[] {
  return candidates.length === 1 ? [`${candidates[0]} `] : candidates;
}

function unique(candidates: string[]): string[] {
  return [...new Set(candidates)];
}

/** The promise's value, or `fallback` when it rejects or takes longer than `timeoutMs`. */
function within<T>(promise: Promise<T>, timeoutMs: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}
