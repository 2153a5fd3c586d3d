/** Options of `Journal.awaitAnswer`. */
export interface AwaitAnswerOptions {
  /** Aborted when the run is cancelled: the wait then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * The seam through which the loop runs every effect that must come out the same way when a run is
 * replayed: a durable engine records each effect's result the first time and hands the recorded result
 * back when the run is replayed on another worker, instead of doing it again.
 *
 * What goes through it (each `step` name is stable and unique within a run):
 * - each model call (`model:<iteration>`, and `model:<iteration>:after-compaction` when a request the provider
 *   rejected as too long is sent again): the whole streamed call is one step, the provider's retries run
 *   inside it, and its recorded value is the assembled assistant message, its tool calls, usage, finish
 *   reason, and the final error (as data) when it failed. Its text, thinking and tool-call-start events are
 *   emitted live while the step runs, and not again on replay;
 * - compaction's summary call (`compaction:<iteration>:<reason>`, `compaction:between-runs:manual` for
 *   `agent.compact()`), recorded as the compactor's result;
 * - each tool call but loop-control calls, which only check their arguments (`tool:<iteration>:<toolCallId>`):
 *   the tool's result, failures included as error results (a tool failure is data, never a thrown step),
 *   its duration, the figures of a sub-agent the call ran, and the tokens its sampling requests spent;
 * - each approval policy decision about a tool call (`approval:<iteration>:<toolCallId>`), and the user's
 *   answer through `awaitAnswer`, so a replay does not ask again and grants given with `allow-session` come
 *   back from the recorded answers;
 * - the run id (`randomId`) and the clock at the run's start and end (`now`); durations inside a step are
 *   measured by the step and recorded with it.
 *
 * A journal's own failure (a rejection of `step` that is not the effect's, of `now`, or of `awaitAnswer`
 * other than by its signal) is not a result of the run: `agent.run` rejects with it.
 *
 * What does not: the app's own code around `agent.run`, memory writes (the conversation is rebuilt by the
 * replay itself), input sent with `agent.send()` during a run, what happens inside a tool call, and event
 * delivery: events are emitted again on replay with the same `eventId`, so a listener deduplicates.
 *
 * What happens inside a tool call is part of its step's effect, since a step does no journal operation of
 * its own: a sub-agent's whole run (its approval requests and questions included), and the requests the
 * tool makes through its context. An elicitation is answered in process; a sampling request's approval is
 * decided by the policy (or a grant) in process, and its model call runs there too, its tokens recorded
 * with the call's result. A replayed tool call is restored from its record, so it neither asks nor samples
 * again; a call cut off by a worker's death runs again, requests included. A journal that records cannot
 * wait for the user inside a step, so under a journal that says `durable: true` a sampling request the
 * policy would ask about is refused (`sampling_approval_unsupported`); any other journal asks.
 *
 * A step that was running when a worker died runs again (a tool call included): tools with side effects
 * deduplicate with `ToolContext.idempotencyKey`.
 *
 * Implementations: the default (`DirectJournal`) runs everything directly, and `@agentloop/restate` journals
 * each step in Restate (`ctx.run`, deterministic time and random, awakeables for answers).
 */
export interface Journal {
  /**
   * True for a journal that records its steps and answers to replay them (a durable engine's: Restate's,
   * `MemoryJournal`). Such a journal allows no journal operation inside a step, so the loop does not
   * wait there for the user: a sampling request the policy would ask about, made inside a tool call, is
   * refused with `sampling_approval_unsupported`. Absent or false (the default journal, or an app's
   * wrapper around it): the user is asked in process.
   */
  readonly durable?: boolean;
  /**
   * True for a journal that matches a replay's steps and waits to its record by the order in which they
   * are made (Restate does), not by their names. The loop then makes them in one order whatever the
   * timing: it runs the tool calls of a response one at a time (as `maxParallelTools: 1` would), since
   * calls running at once would start their steps in the order their approvals or answers came.
   */
  readonly replaysInOrder?: boolean;
  /**
   * Runs an effect once and resolves with its result; on replay resolves with the recorded result without
   * running it. `run` does no journal operation of its own (no nested step, no `now`, no `awaitAnswer`).
   * `name` is stable across replays and unique within a run. The result must survive a JSON
   * round trip (plain objects, arrays, strings, finite numbers, booleans, null). A rejection of `run` is
   * the implementation's to handle (a durable engine may retry it): the loop records its final failures as
   * values, so that a final error ends the run with its typed result instead of being retried forever.
   */
  step<T>(name: string, run: () => Promise<T>): Promise<T>;
  /**
   * The time in milliseconds, read where a run starts and ends (its `durationMs`); recorded, so a replay
   * reads the same value. A durable journal returns the wall clock (a run may start on one machine and end
   * on another), hence a promise (Restate's `ctx.date.now()`). Durations inside a step (a model call's, a
   * tool call's) are measured by the step itself and recorded with its result; never call `now` inside a
   * step, where a durable engine allows no journal operation.
   */
  now(): Promise<number>;
  /** A new random id (a UUID); recorded, so a replay gets the same id. */
  randomId(): string;
  /**
   * Waits for an answer from outside the run (an approval decision, by request id) and resolves with it.
   * `onRequest` announces the request (emits `approval-requested`); it is called once the wait is set up,
   * so that an answer given at once is not lost. A durable journal suspends the run until the answer
   * arrives, on any worker, and on replay resolves with the recorded answer. Rejects with the signal's
   * reason when `options.signal` aborts first.
   */
  awaitAnswer<T>(requestId: string, onRequest: () => void, options?: AwaitAnswerOptions): Promise<T>;
  /**
   * Delivers an answer to a waiting `awaitAnswer` of this process; false when nothing here waits under that
   * id. A durable journal may take answers another way as well (Restate: a shared handler resolving the
   * request's awakeable).
   */
  answer(requestId: string, value: unknown): boolean;
}
