import type { ApprovalControl, ApprovalPrompter, ChangePreviewOptions } from '../approval/index.js';
import type { ElicitationPrompter } from '../elicitation/index.js';
import type { ModelSwitcher } from '../provider/index.js';
import type { ErrorContext, TerminalOutput } from '../render/index.js';
import type { SlashCommand } from '../slash/index.js';
import type { VerboseLog } from '../verbose/index.js';
import type { QuestionPrompter } from './ask-question.js';
import type { TerminalInput } from './line-reader.js';

/** Options of a CliExecutor; all optional. */
export interface CliExecutorOptions {
  /** Default `process.stdin`. */
  input?: TerminalInput;
  /** Default `process.stdout`. */
  output?: TerminalOutput;
  /** Where errors and the verbose log go. Default `process.stderr`. */
  errorOutput?: TerminalOutput;
  /** Used for colour decisions and key redaction. Default `process.env`. */
  environment?: Record<string, string | undefined>;
  /** Start in verbose mode. */
  verbose?: boolean;
  /** The verbose log; the CLI shares it with the provider's logging decorator. Default: one on `errorOutput`. */
  verboseLog?: VerboseLog;
  /** The `provider:model` shown in the banner and by `/model`. Default: from the agent's provider. */
  modelLabel?: string;
  /** Builds providers for `/model`. Default: from `provider:model` and the API keys in the environment. */
  switchModel?: ModelSwitcher;
  /** The slash commands. Default: `builtinSlashCommands`. */
  commands?: readonly SlashCommand[];
  /** Names the provider in error lines. */
  errorContext?: ErrorContext;
  /** Asks the agent's questions. Default: an arrow-key list on a terminal, numbered suggestions otherwise. */
  askQuestion?: QuestionPrompter;
  /**
   * Asks the user about a tool call the agent's approval policy asks about. Default: the approval screen
   * on a terminal (the diff or the command, y/a/n); without one, every such call is refused.
   */
  approve?: ApprovalPrompter;
  /**
   * Asks the user a tool's elicitation (an MCP server's form, or a page to open). Default: a form on a
   * terminal (defaults pre-filled, checked as typed; `n` declines, Esc cancels); without one, declined.
   */
  elicit?: ElicitationPrompter;
  /** Where the approval screen reads a file to show the diff of a change. Default: the working directory. */
  approvalPreview?: ChangePreviewOptions;
  /**
   * The session's approval mode, for `/approval` and a warning before the first turn. Default: one that
   * sets the bare mode on the agent.
   */
  approval?: ApprovalControl;
  /** Handle SIGINT (Ctrl-C off a terminal). Default true when reading `process.stdin`. */
  handleSignals?: boolean;
  /** A first task, run as soon as the session starts (`agentloop "task"`). */
  initialInput?: string;
  /**
   * The agent resumes a saved session (`--continue`, `--resume`): before the first prompt the session is
   * opened, its last exchange shown, and a question it was left waiting on asked again.
   */
  resume?: boolean;
  /**
   * Where the prompt's history is kept across sessions, when the input is a terminal; false keeps none.
   * Default: `historyFile(environment)` (`AGENTLOOP_HISTORY`, or `agentloop/history` in the state directory).
   */
  historyFile?: string | false;
}
