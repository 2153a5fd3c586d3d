// The public surface of @agentloop/core: the agent, its events, results and errors, DI, and the types an
// app needs most, re-exported from the packages below so that an app imports from here and a provider.
// The loop's parts (runLoop, the protocol adapters, the event bus) are not exported: they change freely.

export type {
  CompactionKept,
  CompactionReason,
  CompactionRequest,
  CompactionResult,
  Compactor,
  Memory,
  MemorySnapshot,
  PendingQuestion,
  SessionInfo,
  SessionStore,
  SessionStoreErrorCode,
  StoredSession,
  TokenCounter,
  TokenCountRequest,
} from '@agentloop/memory';
export { ConversationMemory, DefaultTokenCounter, DropMiddleCompactor, SessionStoreError } from '@agentloop/memory';
export type { EnvironmentSnapshot, PromptBuilderOptions, PromptContext, PromptSection } from '@agentloop/prompts';
export { PromptBuilder } from '@agentloop/prompts';
export type {
  AgentloopErrorOptions,
  AnyLLMProvider,
  AssistantMessage,
  ErrorAction,
  FinishReason,
  LLMProvider,
  LLMProviderV1,
  Message,
  MessagePart,
  ModelChunk,
  ModelPricing,
  ModelRequest,
  ModelSettings,
  ProviderCapabilities,
  ProviderErrorCode,
  ReasoningEffort,
  TextPart,
  ThinkingPart,
  ToolCallPart,
  ToolChoice,
  ToolMessage,
  ToolResultPart,
  Usage,
  UserMessage,
} from '@agentloop/spec';
export {
  AgentloopError,
  CancelledError,
  messageText,
  ProviderError,
  systemMessage,
  userMessage,
} from '@agentloop/spec';
export type {
  AskQuestionPayload,
  ConversePayload,
  ElicitationRequest,
  ElicitationResult,
  ElicitationValue,
  LoopControlPayloadMap,
  LoopControlToolName,
  SamplingRequest,
  SamplingResult,
  TaskCompletionPayload,
  Tool,
  ToolAnnotations,
  ToolContext,
  ToolDefinition,
  ToolDefinitionErrorCode,
  ToolProgress,
} from '@agentloop/tools';
export {
  defineTool,
  defineToolPlugin,
  isLoopControlToolName,
  LOOP_CONTROL_TOOL_NAMES,
  ToolDefinitionError,
  ToolRegistry,
} from '@agentloop/tools';
export * from './agent/index.js';
export {
  APPROVAL_MODES,
  type ApprovalAnswer,
  type ApprovalChoice,
  type ApprovalDecision,
  type ApprovalGrant,
  type ApprovalKind,
  type ApprovalMode,
  type ApprovalOption,
  type ApprovalPolicy,
  type ApprovalPolicyOptions,
  type ApprovalRequest,
  type ApprovalRule,
  type ApprovalRuleAction,
  createApprovalPolicy,
  isApprovalMode,
  type SamplingApproval,
} from './approvals/index.js';
export {
  type CompactionOption,
  type CompactionOptions,
  DEFAULT_COMPACTION_THRESHOLD,
  SummarizingCompactor,
  type SummarizingCompactorOptions,
} from './compaction/index.js';
export * from './di/index.js';
export * from './errors/index.js';
export type {
  AgentEvent,
  AgentEventEnvelope,
  AgentEventListener,
  AgentEventMap,
  AgentEventName,
  AgentEventPayloads,
  SubagentStep,
} from './events/index.js';
export { type AwaitAnswerOptions, DirectJournal, type DirectJournalOptions, type Journal } from './journal/index.js';
export {
  LOAD_SKILL_TOOL_NAME,
  type LoadedSkills,
  loadSkills,
  SKILL_FILE,
  type Skill,
  type SkillProblem,
  type SkillsOption,
} from './skills/index.js';
export type { AsToolOptions, SubagentQuestionMode } from './subagents/index.js';
export { type AgentMetrics, type ContextUsage, type RunMetrics, usageCostUsd } from './tokens/index.js';
export type { TracingOption, TracingOptions } from './tracing/index.js';
