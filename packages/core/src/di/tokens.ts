import type { Compactor, Memory, SessionStore, TokenCounter } from '@agentloop/memory';
import type { PromptBuilder } from '@agentloop/prompts';
import type { LLMProvider } from '@agentloop/spec';
import { TOOL_TOKEN, type Tool, type ToolRegistry } from '@agentloop/tools';
import type { Tracer } from '@opentelemetry/api';
import type { AgentOptions } from '../agent/agent-options.js';
import type { ApprovalPolicy } from '../approvals/approval-policy.js';
import type { Journal } from '../journal/journal.js';
import type { Executor } from './executor.js';
import { type ServiceToken, serviceToken } from './service-token.js';

/**
 * Injection tokens of the replaceable services, each typed with its service. `createContainer` registers
 * the defaults; an app or a plugin replaces one by registering its own under the same token.
 */
export const TOKENS = {
  /** The LLMProvider. No default: the app (or the CLI's configuration) registers one. */
  Provider: serviceToken<LLMProvider>('Provider'),
  /** The agent's AgentOptions. */
  AgentOptions: serviceToken<AgentOptions>('AgentOptions'),
  /** The ToolRegistry. */
  ToolRegistry: serviceToken<ToolRegistry>('ToolRegistry'),
  /**
   * Extra tools: register any number (`useValue`); the agent registers all of them. The token is made
   * in @agentloop/tools, which tool packages depend on alone and which cannot know core's typed tokens:
   * here it gets its type.
   */
  Tool: TOOL_TOKEN as ServiceToken<Tool>,
  /** The PromptBuilder. */
  PromptBuilder: serviceToken<PromptBuilder>('PromptBuilder'),
  /** The conversation Memory. */
  Memory: serviceToken<Memory>('Memory'),
  /** The executor that shows the agent's runs (the CLI registers its CliExecutor). */
  Executor: serviceToken<Executor>('Executor'),
  /**
   * The TokenCounter: how full the context is, from the provider's reported usage and an estimate of what
   * came after. Default: a DefaultTokenCounter (one per container, as the memory it counts).
   */
  TokenCounter: serviceToken<TokenCounter>('TokenCounter'),
  /**
   * Keeps sessions (`@agentloop/sessions` has JSON lines and SQLite stores). No default: with one registered,
   * the container's agents keep their conversation in it, unless their options name a session of their own.
   */
  SessionStore: serviceToken<SessionStore>('SessionStore'),
  /**
   * The ApprovalPolicy asked before each tool call. No default: with none registered (and no `approval`
   * in the agent options) every call runs.
   */
  ApprovalPolicy: serviceToken<ApprovalPolicy>('ApprovalPolicy'),
  /**
   * The Compactor that replaces older turns with a summary when the context fills up. No default: with none
   * registered (and none in `compaction.compactor`), the agent's default (a SummarizingCompactor) compacts.
   * Options with `compaction: false` keep it from compacting by itself.
   */
  Compactor: serviceToken<Compactor>('Compactor'),
  /**
   * The OpenTelemetry Tracer the agent's spans are made with. No default: with one registered, tracing is on
   * (with the options' `recordContent` and `agentName`), unless the options say `tracing: false`.
   */
  Tracer: serviceToken<Tracer>('Tracer'),
  /**
   * The Journal the agent's loop runs its effects through (model calls, tool calls, approval decisions, ids,
   * the clock). No default: with none registered (and none in the options), a DirectJournal runs them
   * directly; a durable engine registers its own.
   */
  Journal: serviceToken<Journal>('Journal'),
} as const;
