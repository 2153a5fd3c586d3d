import type { Agent } from '@agentloop/core';
import type { ApprovalControl } from '../approval/index.js';
import type { Style, TerminalOutput, UsageStats } from '../render/index.js';

/** What a slash command can see and change in the session. */
export interface SlashContext {
  readonly agent: Agent;
  readonly output: TerminalOutput;
  readonly style: Style;
  /** Every command, for `/help`. */
  readonly commands: readonly SlashCommand[];
  /** The `provider:model` in use. */
  modelLabel(): string;
  /** Switches provider or model (`provider:model` or a model); resolves with the new label. Throws with a message for the user. */
  switchModel(reference: string): Promise<string>;
  /** Forgets the conversation: the agent's memory, and a question the user has not answered yet. */
  clear(): void;
  /** What the session has used. */
  usage(): UsageStats;
  /** The approval mode, shown and changed by `/approval`. */
  readonly approval: ApprovalControl;
  /** Verbose mode: thinking whole, and model requests and tool calls logged to stderr. */
  verbose: boolean;
  /** Ends the session after the command. */
  exit(): void;
  /** Sends this text to the agent as the next turn's input, once the command has run (an MCP prompt's messages). */
  submit?(input: string): void;
}

/** A command typed at the prompt as `/name arguments`. */
export interface SlashCommand {
  /** The name without the slash. */
  readonly name: string;
  /** Other names it answers to. */
  readonly aliases?: readonly string[];
  /** How it is called, e.g. `/model [provider:model]`. */
  readonly usage: string;
  /** One line on what it does. */
  readonly summary: string;
  run(args: string, context: SlashContext): void | Promise<void>;
}
