import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { formatCallResult } from '../results/format-call-result.js';
import { modelFacingText } from '../sanitize/model-facing-text.js';

/** One argument of a server's prompt. */
export interface McpPromptArgument {
  /** Its name, as `getPrompt` takes it. */
  readonly name: string;
  /** What it means, for the user. */
  readonly description?: string;
  /** True when the prompt cannot be given without it. */
  readonly required: boolean;
}

/** One of a server's prompts: a template a user invokes (`/server:prompt` in the CLI). */
export interface McpPromptSummary {
  /** Its name on the server. */
  readonly name: string;
  /** A display name, where the server gave one. */
  readonly title?: string;
  /** What it does. */
  readonly description?: string;
  /** Its arguments, in the order the server declared them. */
  readonly arguments: readonly McpPromptArgument[];
}

/** One message of a prompt the server filled in. */
export interface McpPromptMessage {
  readonly role: 'user' | 'assistant';
  /** Its content as text: images and binary resources are described by type and size (see formatCallResult). */
  readonly text: string;
}

/** A prompt filled in by its server (`prompts/get`). */
export interface McpPromptResult {
  readonly description?: string;
  readonly messages: readonly McpPromptMessage[];
}

/** A server's prompt as the agent shows it: names and prose cleaned of escape sequences and controls. */
export function toPromptSummary(prompt: Prompt): McpPromptSummary {
  const title = prompt.title ?? undefined;
  return {
    name: modelFacingText(prompt.name),
    ...(title ? { title: modelFacingText(title) } : {}),
    ...(prompt.description ? { description: modelFacingText(prompt.description) } : {}),
    arguments: (prompt.arguments ?? []).map((argument) => ({
      name: modelFacingText(argument.name),
      ...(argument.description ? { description: modelFacingText(argument.description) } : {}),
      required: argument.required === true,
    })),
  };
}

/**
 * A filled-in prompt as text messages: each message's content block described as a tool result's would be
 * (text as it is, an embedded resource's text under its URI, images by type and size), and cleaned like a
 * description, since the text reaches the model and the terminal. Never throws.
 */
export function toPromptResult(result: GetPromptResult): McpPromptResult {
  return {
    ...(result.description ? { description: modelFacingText(result.description) } : {}),
    messages: result.messages.map((message) => ({
      role: message.role,
      text: modelFacingText(formatCallResult({ content: [message.content] })),
    })),
  };
}

/**
 * A filled-in prompt as one turn's input: a single user message is its text; several messages (or an
 * assistant's among them) keep their order, each under its role, so that the model reads the exchange
 * the prompt's author wrote.
 */
export function promptInputText(result: McpPromptResult): string {
  const [first, ...rest] = result.messages;
  if (first && rest.length === 0 && first.role === 'user') return first.text;
  if (result.messages.every((message) => message.role === 'user'))
    return result.messages.map((message) => message.text).join('\n\n');
  return result.messages.map((message) => `[${message.role}]\n${message.text}`).join('\n\n');
}
