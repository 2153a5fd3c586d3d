import { TOOL_TOKEN } from '@agentloop/tools';
import type { InjectionToken } from 'tsyringe';

/**
 * Injection tokens of the replaceable services. Each default is registered under its token by
 * `createContainer`; an app or plugin replaces one by registering its own under the same token.
 */
export const TOKENS = {
  /** The LLMProvider. No default: the app (or the CLI's configuration) registers one. */
  Provider: Symbol.for('agentloop.Provider') as InjectionToken,
  /** The agent's AgentOptions. */
  AgentOptions: Symbol.for('agentloop.AgentOptions') as InjectionToken,
  /** The ToolRegistry. */
  ToolRegistry: Symbol.for('agentloop.ToolRegistry') as InjectionToken,
  /** Extra tools: register any number (`useValue`); the agent registers all of them. */
  Tool: TOOL_TOKEN as InjectionToken,
  /** The PromptBuilder. */
  PromptBuilder: Symbol.for('agentloop.PromptBuilder') as InjectionToken,
  /** The conversation Memory. */
  Memory: Symbol.for('agentloop.Memory') as InjectionToken,
  /** Counts tokens for context management (registered by the memory issue's token counter). */
  TokenCounter: Symbol.for('agentloop.TokenCounter') as InjectionToken,
  /** Persists sessions (registered by the persistence issue's store). */
  SessionStore: Symbol.for('agentloop.SessionStore') as InjectionToken,
  /** Decides whether a tool call may run (registered by the approval issue's policy). */
  ApprovalPolicy: Symbol.for('agentloop.ApprovalPolicy') as InjectionToken,
  /** The executor that renders the agent's events (the CLI registers itself). */
  Executor: Symbol.for('agentloop.Executor') as InjectionToken,
} as const;
