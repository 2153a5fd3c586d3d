import type { LLMProvider } from '@agentloop/spec';
import { AgentloopError } from '@agentloop/spec';
import type { SamplingRequest, ToolContext } from '@agentloop/tools';
import type { ApprovalGate } from '../approvals/index.js';
import type { AgentEventSink } from '../events/index.js';
import type { Journal } from '../journal/journal.js';
import type { ElicitationDesk } from './elicitation-desk.js';
import { sampleModel } from './sample-model.js';
import type { SamplingSpend } from './sampling-spend.js';

/** What answers tools' requests during a run: the agent's elicitation desk and sampling provider. */
export interface ToolRequestsHost {
  readonly elicitations: ElicitationDesk;
  /** The provider a sampling request runs on: the agent's, or the one the app names for the request. */
  samplingProvider(request: SamplingRequest): LLMProvider | Promise<LLMProvider>;
}

/** The tool call the requests are made in. */
export interface ToolRequestsCall {
  readonly events: AgentEventSink;
  readonly iteration: number;
  readonly signal: AbortSignal;
  readonly sessionId: string;
  /** The run's id: the ids of the run's requests are made from it. */
  readonly runId: string;
  readonly workspace: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /**
   * The run's journal. A sampling request's approval is no step of it (the call is one already): only
   * whether it records decides whether the user can be asked inside the call.
   */
  readonly journal: Journal;
  /** Asked before a sampling request runs; absent when the agent has no approval policy. */
  readonly approvals?: ApprovalGate | undefined;
  /** The clock a sampling call's duration is measured with. */
  readonly now: () => number;
  /** Where what the call's sampling requests spent is kept, for the run's usage (see SamplingSpend). */
  readonly samplingSpent: SamplingSpend[];
}

/**
 * `elicit` and `sample` for one tool call's ToolContext. `sample` runs only once the approval policy
 * allows it (a sampling request is asked about on its own, not covered by the call's approval), and
 * rejects with an AgentloopError `sampling_declined` when it is refused, `sampling_approval_unsupported`
 * when it would need the user's answer inside a durable tool call (see `ApprovalGate.checkSampling`).
 * Both requests are part of the call's effect, never journal operations of their own: a replayed call is
 * restored from its record without asking or sampling again.
 */
export function toolRequests(
  host: ToolRequestsHost,
  call: ToolRequestsCall,
): Required<Pick<ToolContext, 'elicit' | 'sample'>> {
  return {
    elicit: (request) => host.elicitations.ask(call, request),
    sample: async (request) => {
      const signal = request.signal ? AbortSignal.any([call.signal, request.signal]) : call.signal;
      if (call.approvals) {
        const verdict = await call.approvals.checkSampling({ ...call, signal }, call, request);
        if (!verdict.run) {
          const code = verdict.code === 'unsupported' ? 'sampling_approval_unsupported' : 'sampling_declined';
          throw new AgentloopError(verdict.message, { code });
        }
      }
      return sampleModel(await host.samplingProvider(request), request, signal, {
        spent: (spend) => call.samplingSpent.push(spend),
        now: call.now,
      });
    },
  };
}
