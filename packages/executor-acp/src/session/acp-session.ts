import type {
  ContentBlock,
  NewSessionResponse,
  PromptResponse,
  SessionConfigOption,
  SetSessionConfigOptionRequest,
} from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import type {
  Agent,
  AgentEvent,
  AgentEventMap,
  ApprovalMode,
  ApprovalRule,
  ElicitationResult,
  Usage,
} from '@agentloop/core';
import { isApprovalMode } from '@agentloop/core';
import type { McpServers } from '@agentloop/mcp';
import { addUsage, emptyUsage } from '@agentloop/spec';
import { withdrawnOn } from '../client/withdrawn-on.js';
import { endingAfterStreamed, stopReasonOf } from '../updates/run-ending.js';
import type { SessionUpdateMapper } from '../updates/session-update-mapper.js';
import { toolCallView } from '../updates/tool-call-view.js';
import type { AcpSessionAgent } from './agent-factory.js';
import {
  type EditorElicitation,
  elicitationAnswer,
  elicitationCreateRequest,
  elicitationPermissionAnswer,
  elicitationPermissionRequest,
} from './editor-elicitation.js';
import { embedMcpResources, invokeMcpPrompt } from './mcp-prompt-commands.js';
import { promptText } from './prompt-text.js';
import { approvalAnswer, permissionRequest } from './request-permission.js';
import type { SessionOutbox } from './session-outbox.js';
import { configOptions, MODE_OPTION_ID, MODEL_OPTION_ID, modeState } from './session-settings.js';
import { slashCommandOf } from './slash-commands.js';
import { toRequestError } from './to-request-error.js';

/** What a session is made of. */
export interface AcpSessionParts {
  sessionId: string;
  cwd: string;
  built: AcpSessionAgent;
  outbox: SessionOutbox;
  mapper: SessionUpdateMapper;
  /** The mode when the factory named none. */
  defaultMode: ApprovalMode;
  /** Rules that come before the mode, for the default `setMode`. */
  approvalRules: readonly ApprovalRule[];
  /** The elicitation modes the editor shows with `elicitation/create`; none by default. */
  elicitation?: EditorElicitation;
  log: (message: string) => void;
  /** The MCP servers whose prompts are commands and whose resources a link may name; none by default. */
  mcpServers?: readonly McpServers[];
}

/**
 * One editor session: its agent, the approval mode and model the editor selected, and the prompt turn
 * that runs. A prompt runs the loop and streams its events as `session/update`s; `cancel` ends it with the
 * stop reason `cancelled`; approval requests become `session/request_permission`.
 */
export class AcpSession {
  readonly sessionId: string;
  readonly agent: Agent;
  readonly #parts: AcpSessionParts;
  readonly #setMode: (mode: ApprovalMode) => void;
  #mode: ApprovalMode;
  #model: string | undefined;
  #usage: Usage = emptyUsage();
  #prompts = 0;
  /** The running turn: aborted by a cancel; settles when the turn has ended. */
  #turn: { controller: AbortController; done: Promise<unknown> } | undefined;

  constructor(parts: AcpSessionParts) {
    const { built } = parts;
    this.#parts = parts;
    this.sessionId = parts.sessionId;
    this.agent = built.agent;
    this.#setMode =
      built.setMode?.bind(built) ?? ((mode) => built.agent.setApproval({ mode, rules: [...parts.approvalRules] }));
    this.#mode = built.mode ?? parts.defaultMode;
    this.#model = built.models?.current;
    this.#setMode(this.#mode);
    // Listened to for the session's life: an agent with no listener refuses calls that need approval.
    this.agent.on('approval-requested', (event) => void this.#askPermission(event));
    this.agent.on('elicitation-requested', (event) => void this.#elicit(event));
    // A sub-agent's request comes wrapped, with an id of this agent's; the editor sees it on the
    // sub-agent's call as the mapper shows it, the reason naming the sub-agent.
    this.agent.on('subagent-event', ({ path, event }) => {
      if (event.type === 'elicitation-requested') {
        const toolCallId = [...path.map((step) => step.toolCallId), event.toolCallId].join('/');
        void this.#elicit({ ...event, toolCallId });
        return;
      }
      if (event.type !== 'approval-requested') return;
      const toolCallId = [...path.map((step) => step.toolCallId), event.toolCallId].join('/');
      const who = path.map((step) => step.toolName).join(' › ');
      void this.#askPermission({ ...event, toolCallId, reason: `asked by the ${who} agent: ${event.reason}` });
    });
  }

  /** True while a prompt turn runs. */
  get running(): boolean {
    return this.#turn !== undefined;
  }

  /** The `session/new` answer: the id, the modes and the config options. */
  newSessionResponse(): NewSessionResponse {
    return { sessionId: this.sessionId, modes: modeState(this.#mode), configOptions: this.#configOptions() };
  }

  /**
   * Runs one prompt turn to its end: the loop's events go out as updates, then the turn's last message;
   * resolves with the stop reason, or rejects with a JSON-RPC error when the run failed. A slash command
   * (`/clear`) is answered without the model. One turn at a time: a second prompt is an invalid request.
   */
  async prompt(prompt: readonly ContentBlock[], signal: AbortSignal): Promise<PromptResponse> {
    if (this.#turn) {
      throw RequestError.invalidRequest(
        { sessionId: this.sessionId },
        'a prompt is already running in this session; cancel it (session/cancel) or wait for its answer',
      );
    }
    // The turn exists from here, so that a second prompt or a cancel during the MCP steps below sees it.
    const controller = new AbortController();
    const done = this.#prepareAndRun(prompt, controller.signal, signal);
    this.#turn = { controller, done };
    try {
      return await done;
    } finally {
      this.#turn = undefined;
    }
  }

  async #prepareAndRun(
    prompt: readonly ContentBlock[],
    cancelled: AbortSignal,
    signal: AbortSignal,
  ): Promise<PromptResponse> {
    const servers = this.#parts.mcpServers ?? [];
    let text = promptText(await embedMcpResources(prompt, servers));
    const command = slashCommandOf(text);
    if (command) {
      return this.#answer(command.run({ agent: this.agent, usage: this.#usage, prompts: this.#prompts }));
    }
    // `/server:prompt args`: the server fills the prompt in, and its messages are the turn's input.
    const invoked = await invokeMcpPrompt(text, servers);
    if (invoked && 'error' in invoked) return this.#answer(invoked.error);
    if (invoked) text = invoked.input;
    return this.#run(text, cancelled, signal);
  }

  /** Answers a prompt with a message of the executor's own, without the model. */
  async #answer(message: string): Promise<PromptResponse> {
    const { outbox, mapper } = this.#parts;
    outbox.send(mapper.messageChunk(message));
    await outbox.flush();
    return { stopReason: 'end_turn' };
  }

  /** Cancels the running turn, which then ends with the stop reason `cancelled`; nothing when none runs. */
  cancel(): void {
    this.#turn?.controller.abort(new Error('cancelled by the editor'));
  }

  /** `session/set_mode`: an approval mode from the next tool call on. */
  setMode(modeId: string): void {
    if (!isApprovalMode(modeId)) {
      throw RequestError.invalidParams(
        { modeId },
        `unknown mode "${modeId}": use one of ${modeState(this.#mode)
          .availableModes.map((mode) => mode.id)
          .join(', ')}`,
      );
    }
    this.#mode = modeId;
    this.#setMode(modeId);
    // Editors that show the config options rather than the modes see the change there.
    this.#parts.outbox.send({ sessionUpdate: 'config_option_update', configOptions: this.#configOptions() });
  }

  /** `session/set_config_option`: the approval mode or the model (its provider from the next model call). */
  async setConfigOption(request: SetSessionConfigOptionRequest): Promise<SessionConfigOption[]> {
    const value = 'value' in request ? request.value : undefined;
    if (request.configId === MODE_OPTION_ID && typeof value === 'string') {
      this.setMode(value);
      this.#parts.outbox.send({ sessionUpdate: 'current_mode_update', currentModeId: this.#mode });
    } else if (request.configId === MODEL_OPTION_ID && typeof value === 'string' && this.#parts.built.models) {
      const models = this.#parts.built.models;
      if (!models.available.some((model) => model.id === value)) {
        throw RequestError.invalidParams(
          { configId: request.configId, value },
          `unknown model "${value}": use one of ${models.available.map((model) => model.id).join(', ')}`,
        );
      }
      try {
        this.agent.setProvider(await models.select(value));
      } catch (error) {
        throw toRequestError(error);
      }
      this.#model = value;
    } else {
      throw RequestError.invalidParams(
        { configId: request.configId },
        `unknown config option "${request.configId}" or value; the options are ${this.#configOptions()
          .map((option) => option.id)
          .join(', ')}`,
      );
    }
    return this.#configOptions();
  }

  /**
   * Ends the session: cancels its turn, waits for it to end, gives up a stored session's write lock (so
   * that another editor or process can load it), and releases what the agent holds.
   */
  async close(): Promise<void> {
    this.cancel();
    await this.#turn?.done.catch(() => undefined);
    try {
      await (this.agent as Agent & { closeSession?: () => Promise<void> }).closeSession?.();
    } catch (error) {
      this.#parts.log(`session ${this.sessionId}: its stored session did not close cleanly: ${describe(error)}`);
    }
    await this.#parts.built.dispose?.();
  }

  async #run(text: string, signal: AbortSignal, requestSignal: AbortSignal): Promise<PromptResponse> {
    const { outbox, mapper } = this.#parts;
    // The text of the last model step, which the ending message must not repeat (see endingAfterStreamed).
    let streamed = '';
    const forward = (event: AgentEvent) => {
      if (event.type === 'loop-iteration' || event.type === 'message-start') streamed = '';
      else if (event.type === 'message-content') streamed += event.text;
      for (const update of mapper.map(event)) outbox.send(update);
    };
    const stopListening = this.agent.onAny(forward);
    // The request's own signal aborts when the editor withdraws the request or the connection closes.
    const onAbort = () => this.agent.cancel('cancelled by the editor');
    signal.addEventListener('abort', onAbort, { once: true });
    requestSignal.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await this.agent.run(text);
      this.#usage = addUsage(this.#usage, result.usage);
      this.#prompts += 1;
      const message = endingAfterStreamed(result, streamed);
      if (message !== undefined) outbox.send(mapper.messageChunk(message));
      await outbox.flush();
      const stopReason = stopReasonOf(result);
      if (stopReason === undefined) throw toRequestError(result.error);
      // The stable schema's PromptResponse has no usage field (the draft's `usage` is unstable): the turn's
      // usage goes in `_meta`, in the draft's shape, for a client that shows it.
      return { stopReason, _meta: { usage: promptUsage(result.usage) } };
    } finally {
      stopListening();
      signal.removeEventListener('abort', onAbort);
      requestSignal.removeEventListener('abort', onAbort);
    }
  }

  // Asks the editor; its answer (or its failure to give one) answers the agent. A request the run's cancel
  // withdrew needs no answer: the cancel refused the call.
  async #askPermission(event: AgentEventMap['approval-requested']): Promise<void> {
    const { outbox, cwd } = this.#parts;
    const view = toolCallView({
      name: event.name,
      arguments: event.arguments,
      cwd,
      annotations: event.annotations,
    });
    const turn = this.#turn;
    let answer: ReturnType<typeof approvalAnswer>;
    try {
      await outbox.flush();
      const response = await outbox.client.request(
        'session/request_permission',
        permissionRequest(this.sessionId, event, view),
        turn ? withdrawnOn(turn.controller.signal) : {},
      );
      answer = approvalAnswer(response.outcome, event) ?? {
        decision: 'deny',
        message: 'The editor dismissed the request.',
      };
    } catch (error) {
      if (turn?.controller.signal.aborted) return;
      this.#parts.log(`session ${this.sessionId}: the permission request failed: ${describe(error)}`);
      answer = { decision: 'deny', message: 'The editor could not be asked for approval.' };
    }
    try {
      this.agent.answerApproval(event.requestId, answer);
    } catch {
      // The run ended (a cancel) while the editor was asked: nothing waits for the answer any more.
    }
  }

  // A tool's request for the user's input: `elicitation/create` where the editor shows the mode, else a
  // permission request where accept or decline says it all (a page to open, a form without fields), else
  // declined. A request the run's cancel withdrew needs no answer: the cancel cancelled it.
  async #elicit(event: AgentEventMap['elicitation-requested']): Promise<void> {
    const { outbox, elicitation, log } = this.#parts;
    const turn = this.#turn;
    const options = turn ? withdrawnOn(turn.controller.signal) : {};
    let answer: ElicitationResult;
    try {
      await outbox.flush();
      if (elicitation?.[event.mode]) {
        const request = elicitationCreateRequest(this.sessionId, event);
        answer = elicitationAnswer(await outbox.client.request('elicitation/create', request, options));
      } else {
        const request = elicitationPermissionRequest(this.sessionId, event);
        if (request) {
          const response = await outbox.client.request('session/request_permission', request, options);
          answer = elicitationPermissionAnswer(response.outcome);
        } else {
          log(
            `session ${this.sessionId}: declined a form of ${event.name}: the editor does not show elicitation forms`,
          );
          answer = { action: 'decline' };
        }
      }
    } catch (error) {
      if (turn?.controller.signal.aborted) return;
      log(`session ${this.sessionId}: the elicitation request failed: ${describe(error)}`);
      answer = { action: 'decline' };
    }
    try {
      this.agent.answerElicitation?.(event.requestId, answer);
    } catch (error) {
      // An answer that leaves a required field empty is declined; an id no longer waiting needs nothing.
      if ((error as { code?: unknown }).code !== 'invalid_usage') return;
      log(`session ${this.sessionId}: the editor's answer to an elicitation was refused: ${describe(error)}`);
      try {
        this.agent.answerElicitation?.(event.requestId, { action: 'decline' });
      } catch {
        // The call ended meanwhile.
      }
    }
  }

  #configOptions(): SessionConfigOption[] {
    const models = this.#parts.built.models;
    return configOptions(
      this.#mode,
      models && this.#model !== undefined ? { available: models.available, current: this.#model } : undefined,
    );
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A turn's token usage in the shape of ACP's draft `Usage`: input tokens include cached ones, and thought
 * tokens are counted in the output tokens as well.
 */
function promptUsage(usage: Usage): Record<string, number> {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.inputTokens + usage.outputTokens,
    thoughtTokens: usage.reasoningTokens,
    cachedReadTokens: usage.cacheReadTokens,
    cachedWriteTokens: usage.cacheWriteTokens,
  };
}
