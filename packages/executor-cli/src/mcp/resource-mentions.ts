import type { McpResourceSubscription, McpServers } from '@agentloop/mcp';

/** A resource a user mentioned (`@server:uri`). */
export interface ResourceMention {
  readonly server: string;
  readonly uri: string;
}

/** A resource attached to a line; `cut` when its text (all its parts') was longer than its server gives at once. */
export interface AttachedResource extends ResourceMention {
  /** The server's limit (`max_resource_bytes`) and the size of the resource's text, both in bytes. */
  readonly cut?: { readonly maxBytes: number; readonly totalBytes: number };
}

/** A line with its mentions' resources attached, or why one could not be. */
export type MentionsOutcome =
  | {
      readonly ok: true;
      readonly input: string;
      readonly attached: readonly AttachedResource[];
      readonly refreshed: readonly AttachedResource[];
    }
  | { readonly ok: false; readonly error: string };

/**
 * The `@server:uri` mentions in a line: a server's name (one of the session's MCP servers), a colon and a
 * URI up to the next space. A word like `@team:later` whose name is no server's stays text. A URI's
 * trailing `.`, `,`, `;`, `)` or `?` is the sentence's, not the URI's.
 */
export function findResourceMentions(line: string, serverNames: readonly string[]): ResourceMention[] {
  const mentions: ResourceMention[] = [];
  for (const mention of allMentions(line)) {
    const { server, uri } = mention;
    if (serverNames.includes(server) && !mentions.some((m) => m.server === server && m.uri === uri)) {
      mentions.push(mention);
    }
  }
  return mentions;
}

/**
 * The first mention in a line of a server there is not, whose rest is a URI with a path (`@docs:file:///a.md`,
 * `@db:postgres://x`): meant as a resource, so an error to report rather than text to send. `@team:later`
 * and `@bob:12:30` are text.
 */
export function findUnknownServerMention(line: string, serverNames: readonly string[]): ResourceMention | undefined {
  return allMentions(line).find(
    (mention) => !serverNames.includes(mention.server) && /^[a-z][a-z\d+.-]*:\//i.test(mention.uri),
  );
}

function allMentions(line: string): ResourceMention[] {
  const mentions: ResourceMention[] = [];
  for (const match of line.matchAll(/(?:^|\s)@([\w-]{1,40}):(\S+)/g)) {
    const [, server = '', rawUri = ''] = match;
    const uri = rawUri.replace(/[.,;)?!]+$/, '');
    if (uri !== '') mentions.push({ server, uri });
  }
  return mentions;
}

/**
 * `line` with the resources it mentions attached, read once and not followed after: for `agentloop run`,
 * which sends one message. The same mentions, content and errors as the interactive session's.
 */
export function expandResourceMentions(servers: McpServers | undefined, line: string): Promise<MentionsOutcome> {
  return new ResourceMentions(() => servers, { follow: false }).expand(line);
}

/** Options of ResourceMentions. */
export interface ResourceMentionsOptions {
  /** Subscribe to what was attached, to send it again when it changes. Default true. */
  readonly follow?: boolean;
}

/**
 * The resources a session's user attached with `@server:uri`. Each mention reads the resource now and
 * attaches its content to that turn's input. Where the server offers subscriptions, the session subscribes
 * to what it attached, and when the server says a resource changed, the next turn the user sends carries
 * its new content (once per change), so the model does not go on working from a stale copy; the earlier
 * turns keep what they had. The subscriptions end with the session (`close`) or `/clear` (`forget`).
 */
export class ResourceMentions {
  readonly #servers: () => McpServers | undefined;
  readonly #subscriptions = new Map<string, Promise<McpResourceSubscription>>();
  readonly #changed = new Map<string, ResourceMention>();
  readonly #follow: boolean;

  constructor(servers: () => McpServers | undefined, options: ResourceMentionsOptions = {}) {
    this.#servers = servers;
    this.#follow = options.follow ?? true;
  }

  /**
   * The line with the resources it mentions attached, and those of earlier mentions that changed since.
   * A line without mentions or changes comes back as it is. Never rejects: a resource that cannot be read
   * is `ok: false` with the server's reason, and so is a resource of a server there is not; nothing is sent.
   */
  async expand(line: string): Promise<MentionsOutcome> {
    const servers = this.#servers();
    const names = servers?.status().map((status) => status.name) ?? [];
    const unknown = findUnknownServerMention(line, names);
    if (unknown) return { ok: false, error: unknownServerError(unknown, names) };
    if (!servers) return { ok: true, input: line, attached: [], refreshed: [] };
    const mentions = findResourceMentions(line, names);
    const refreshed = [...this.#changed.values()].filter(
      (changed) => !mentions.some((m) => m.server === changed.server && m.uri === changed.uri),
    );
    if (mentions.length === 0 && refreshed.length === 0) return { ok: true, input: line, attached: [], refreshed: [] };
    const { resourceContentsText } = await import('@agentloop/mcp');
    const blocks: string[] = [];
    const cuts = new Map<ResourceMention, AttachedResource['cut']>();
    for (const mention of [...mentions, ...refreshed]) {
      let text: string;
      try {
        const contents = await servers.readResource(mention.server, mention.uri);
        // Cut as read_resource cuts it, with the same note: the model reads on with read_resource.
        const maxBytes = servers.maxResourceBytes(mention.server);
        text = resourceContentsText(contents, { maxBytes });
        // The limit holds for all the text parts together, so the cut is one of the whole.
        const totalBytes = contents.reduce(
          (sum, part) => sum + (part.text === undefined ? 0 : Buffer.byteLength(part.text)),
          0,
        );
        if (totalBytes > maxBytes) cuts.set(mention, { maxBytes, totalBytes });
      } catch (error) {
        return {
          ok: false,
          error: `@${mention.server}:${mention.uri} could not be attached: ${(error as Error).message}`,
        };
      }
      const changed = refreshed.includes(mention) ? ' changed="true"' : '';
      blocks.push(
        `<resource server="${mention.server}" uri="${escapeAttribute(mention.uri)}"${changed}>\n${escapeBlockEnd(text)}\n</resource>`,
      );
    }
    for (const mention of [...mentions, ...refreshed]) this.#changed.delete(key(mention));
    if (this.#follow) for (const mention of mentions) this.#subscribe(servers, mention);
    const note =
      refreshed.length > 0 ? 'Resources attached earlier changed since; their content now:' : 'Attached resources:';
    const withCut = (mention: ResourceMention): AttachedResource => {
      const cut = cuts.get(mention);
      return cut ? { ...mention, cut } : mention;
    };
    return {
      ok: true,
      input: `${line}\n\n${note}\n${blocks.join('\n')}`,
      attached: mentions.map(withCut),
      refreshed: refreshed.map(withCut),
    };
  }

  /** Stops following what was attached (the conversation was cleared). */
  async forget(): Promise<void> {
    const subscriptions = [...this.#subscriptions.values()];
    this.#subscriptions.clear();
    this.#changed.clear();
    await Promise.all(
      subscriptions.map((subscription) =>
        subscription.then(
          (taken) => taken.unsubscribe(),
          () => undefined,
        ),
      ),
    );
  }

  /** Ends the subscriptions: the session ends. */
  close(): Promise<void> {
    return this.forget();
  }

  #subscribe(servers: McpServers, mention: ResourceMention): void {
    const id = key(mention);
    if (this.#subscriptions.has(id)) return;
    const subscription = servers.subscribeResource(mention.server, mention.uri, () => {
      if (this.#subscriptions.has(id)) this.#changed.set(id, mention);
    });
    // Only an unknown server rejects, and the mention was just read from it.
    subscription.catch(() => this.#subscriptions.delete(id));
    this.#subscriptions.set(id, subscription);
  }
}

/**
 * What the user is told beside `↳ attached @server:uri` of a resource that was cut: how much of how much
 * went with the message, and that the model can read the rest. Empty for a resource attached whole.
 */
export function attachedCutNote(resource: AttachedResource): string {
  if (!resource.cut) return '';
  const { maxBytes, totalBytes } = resource.cut;
  return ` (cut at ${formatBytes(maxBytes)} of ${formatBytes(totalBytes)}: the model can read the rest with read_resource; max_resource_bytes in [mcp_servers.${resource.server}] raises the limit)`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function unknownServerError(mention: ResourceMention, names: readonly string[]): string {
  const servers =
    names.length > 0
      ? `the servers are ${names.join(', ')}`
      : `none is configured: add it as [mcp_servers.${mention.server}] in the configuration`;
  return `@${mention.server}:${mention.uri} could not be attached: no MCP server is named "${mention.server}"; ${servers}.`;
}

function key(mention: ResourceMention): string {
  return `${mention.server}\u0000${mention.uri}`;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The resource's text with every `</resource` (in any case or spacing) written as `&lt;/resource`: the text
 * is the server's, and a closing tag in it would end its block and let it write beside it as the user.
 */
function escapeBlockEnd(text: string): string {
  return text.replace(/<(?=\s*\/\s*resource)/gi, '&lt;');
}
