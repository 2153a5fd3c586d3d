import type { Agent, Executor } from '@agentloop/core';
import { ToolSafety } from '../approval/tool-safety.js';
import type { CliFlags, SessionSettings } from '../config/index.js';
import { resolveSessionSettings } from '../config/index.js';
import { CliError } from '../errors/index.js';
import { mcpServersOf } from '../mcp/mcp-session-plugin.js';
import { mcpStartWarnings } from '../mcp/mcp-start-warnings.js';
import { attachedCutNote, expandResourceMentions } from '../mcp/resource-mentions.js';
import { providerLabel } from '../provider/index.js';
import type { ErrorContext } from '../render/index.js';
import {
  createStyle,
  describeError,
  errorFields,
  stripControls,
  terminalFeatures,
  toJsonLine,
} from '../render/index.js';
import type { CliExecutor } from '../session/cli-executor.js';
import { EXIT_CODES } from '../session/exit-codes.js';
import { runOnce } from '../session/run-once.js';
import { isSetupError } from '../session/setup-error.js';
import type { PreparedSession, SessionPicker } from '../session-store/index.js';
import { clackSessionPicker, prepareSession } from '../session-store/index.js';
import { skillStartWarnings } from '../skills/session-skills.js';
import type { sessionsCommand } from '../slash/sessions-command.js';
import type { Redactor } from '../verbose/index.js';
import { createRedactor, environmentSecrets, logToolEvents } from '../verbose/index.js';
import type { ComposedAgent } from './compose-agent.js';
import type { ConsoleGuard } from './console-guard.js';
import { createVerboseLog } from './create-verbose-log.js';
import { readTask } from './read-task.js';
import { runThenDispose } from './run-then-dispose.js';

/** What the command gives a session beyond its flags. */
export interface SessionHooks {
  /** The console guard main installed; the session gives it its redactor, which knows the configured keys. */
  consoleGuard?: ConsoleGuard;
}

// The composition root loads @agentloop/core, the provider SDK and the plugins; it is imported when the
// settings are known, so the interactive prompt is drawn while it loads.
const loadComposition = () => import('./compose-agent.js');

// The interactive session's own modules (the executor, its line editor and history, the slash commands,
// the approval screens): `agentloop run` never loads them. Imported while the settings are read.
const loadInteractive = () =>
  Promise.all([
    import('../session/cli-executor.js'),
    import('../slash/index.js'),
    import('../slash/sessions-command.js'),
  ]).then(([{ CliExecutor }, { builtinSlashCommands }, { sessionsCommand }]) => ({
    CliExecutor,
    builtinSlashCommands,
    sessionsCommand,
  }));

/** `agentloop [task]`: the interactive session (or a one-shot run when stdin is piped in). */
export async function startInteractive(
  task: string | undefined,
  flags: CliFlags,
  hooks: SessionHooks = {},
): Promise<number> {
  if (!process.stdin.isTTY) return startRun(task, flags, { json: false }, hooks);
  const interactive = loadInteractive();
  interactive.catch(() => undefined); // Awaited below, unless setup fails first.
  const settings = await resolveOrReport(flags, false);
  if (typeof settings === 'number') return settings;
  // Awaited before the session store starts to open: for a new session nothing from here to the prompt
  // waits for I/O, so the store's loading (SQLite's native module, the database) comes after the prompt
  // is drawn, not before it.
  const { CliExecutor, builtinSlashCommands, sessionsCommand } = await interactive;
  const session = await prepareOrReport(
    settings,
    flags,
    false,
    clackSessionPicker(process.stdin, process.stdout, settings.cwd),
  );
  if (typeof session === 'number') return session;
  const verboseLog = createVerboseLog(settings, process.stderr, process.env);
  hooks.consoleGuard?.redactWith(verboseLog.redact);
  const errorContext: ErrorContext = {};
  // Shared by the composition, which checks the sandbox, and the session, whose /approval changes the mode.
  const toolSafety = new ToolSafety(settings);
  const composition = loadComposition().then(({ composeAgent }) =>
    composeAgent(settings, { verboseLog, errorContext, executor: cliExecutor, toolSafety, session: session.options }),
  );
  const agent = composition.then((composed) => composed.agent);
  const cliExecutor = new CliExecutor(agent, {
    verboseLog,
    modelLabel: providerLabel(settings.provider),
    switchModel: async (reference) => (await composition).switchModel(reference),
    errorContext,
    approval: toolSafety,
    approvalPreview: { workspace: settings.cwd, ...settings.config.tools },
    ...(task ? { initialInput: task } : {}),
    resume: session.resumed,
    ...(session.store
      ? {
          commands: withSessionsCommand(builtinSlashCommands, sessionsCommand, {
            store: session.store,
            sessionId: () => session.sessionId,
            cwd: settings.cwd,
          }),
        }
      : {}),
  });
  return runThenDispose({
    run: async () => (await sessionExecutor(settings, composition, cliExecutor)).run(),
    dispose: async () => {
      try {
        await (await composition).dispose();
      } finally {
        await session.close();
      }
    },
    cancel: () => void agent.then((ready) => ready.cancel('ended by SIGTERM')).catch(() => undefined),
    redact: verboseLog.redact,
  });
}

/**
 * The executor that runs the interactive session: what the container holds under `TOKENS.Executor`, so
 * that a plugin registering its own there replaces the CLI's. Without plugins nothing can replace it, so
 * the CLI's runs at once: its prompt is drawn while core and the provider SDK load, which resolving it
 * from the container would wait for. A container that failed to build holds no executor; the CLI's then
 * runs and reports the failure, as it does without plugins.
 */
async function sessionExecutor(
  settings: SessionSettings,
  composition: Promise<ComposedAgent>,
  cliExecutor: CliExecutor,
): Promise<Executor> {
  if (settings.plugins.length === 0) return cliExecutor;
  const registered = await (await composition).executor.catch(() => undefined);
  return registered ?? cliExecutor;
}

/** `agentloop run [task]`: one task, no questions asked; the exit status says how it ended. */
export async function startRun(
  argument: string | undefined,
  flags: CliFlags,
  options: { json: boolean },
  hooks: SessionHooks = {},
): Promise<number> {
  // Started now so that loading core and the provider overlaps reading the task, the settings and the
  // session; awaited once they are known. A failure is reported there (or not at all, if setup fails first).
  const composition = loadComposition();
  composition.catch(() => undefined);
  const task = await readTask(argument, process.stdin);
  if (task === undefined) {
    return report(
      new CliError('No task given: agentloop run "your task", or pipe it in: echo "your task" | agentloop run', {
        code: 'no_task',
      }),
      options.json,
    );
  }
  const settings = await resolveOrReport(flags, options.json);
  if (typeof settings === 'number') return settings;
  const session = await prepareOrReport(settings, flags, options.json, async () => {
    throw new CliError('agentloop run cannot show a list to pick from: give the session, --resume <id>.', {
      code: 'no_session_id',
    });
  });
  if (typeof session === 'number') return session;
  const composed = (await composition).composeAgent(settings, { session: session.options });
  hooks.consoleGuard?.redactWith(composed.verboseLog.redact);
  let running: Agent | undefined;
  return runThenDispose({
    run: async () => {
      try {
        running = await composed.agent;
      } catch (error) {
        return report(error, options.json, describeError(error, composed.errorContext), composed.verboseLog.redact);
      }
      const notice = composed.toolSafety.notice('run');
      if (notice) warn(notice, composed.verboseLog.redact);
      for (const line of [...mcpStartWarnings(running.tools, '`agentloop mcp list`'), ...skillStartWarnings(running)])
        warn(line, composed.verboseLog.redact);
      const input = await attachMentions(running, task, options.json, composed.verboseLog.redact);
      if (typeof input === 'number') return input;
      const stopLogging = logToolEvents(running, composed.verboseLog);
      try {
        return await runOnce(running, input, {
          explainRefusal: (tool) => composed.toolSafety.refusalInRun(tool),
          json: options.json,
          verbose: settings.verbose,
          errorContext: composed.errorContext,
          redact: composed.verboseLog.redact,
        });
      } finally {
        stopLogging();
      }
    },
    dispose: async () => {
      try {
        await composed.dispose();
      } finally {
        await session.close();
      }
    },
    cancel: () => running?.cancel('ended by SIGTERM'),
    redact: composed.verboseLog.redact,
  });
}

/**
 * The task with the MCP resources it mentions (`@server:uri`) attached, as the interactive session attaches
 * them; a line on stderr names each. When one cannot be (no such server, the server cannot read it), the
 * exit status 2 after a line that says why: nothing is sent to the model.
 */
async function attachMentions(agent: Agent, task: string, json: boolean, redact: Redactor): Promise<string | number> {
  const outcome = await expandResourceMentions(mcpServersOf(agent.tools), task);
  if (!outcome.ok)
    return report(new CliError(outcome.error, { code: 'resource_not_attached' }), json, undefined, redact);
  if (!json) {
    const style = createStyle(terminalFeatures(process.stderr).color);
    for (const mention of outcome.attached) {
      const attached = `↳ attached @${stripControls(mention.server)}:${stripControls(mention.uri)}`;
      process.stderr.write(style.dim(`${attached}${stripControls(attachedCutNote(mention))}\n`));
    }
  }
  return outcome.input;
}

/**
 * The session to run in (`--continue`, `--resume`, or a new one), or the exit status when it cannot be
 * found (2) or the user backed out of the list (130). A line says when --continue found nothing to resume.
 */
async function prepareOrReport(
  settings: SessionSettings,
  flags: CliFlags,
  json: boolean,
  pick: SessionPicker,
): Promise<PreparedSession | number> {
  try {
    const session = await prepareSession(
      settings,
      {
        ...(flags.continue ? { continue: true } : {}),
        ...(flags.resume === undefined ? {} : { resume: flags.resume }),
      },
      pick,
    );
    if (!session) return EXIT_CODES.cancelled;
    const style = createStyle(terminalFeatures(process.stderr).color);
    if (session.notice) process.stderr.write(`${style.dim(session.notice)}\n`);
    if (session.warning) process.stderr.write(`${style.yellow('⚠')} ${stripControls(session.warning)}\n`);
    return session;
  } catch (error) {
    return report(error, json);
  }
}

/** The session's slash commands with `/sessions`, before `/verbose` and `/exit`. */
function withSessionsCommand<Command extends { name: string }>(
  builtin: readonly Command[],
  command: (source: Parameters<typeof sessionsCommand>[0]) => Command,
  source: Parameters<typeof sessionsCommand>[0],
) {
  const commands = [...builtin];
  const before = commands.findIndex((command) => command.name === 'verbose');
  commands.splice(before < 0 ? commands.length : before, 0, command(source));
  return commands;
}

async function resolveOrReport(flags: CliFlags, json: boolean): Promise<SessionSettings | number> {
  try {
    const settings = await resolveSessionSettings(flags);
    process.chdir(settings.cwd);
    return settings;
  } catch (error) {
    return report(error, json);
  }
}

/**
 * Reports a failure to start: the message on stderr (with `--json` also as a JSON line on stdout) and the
 * exit status — 2 for the user's setup (configuration, provider, plugins, no task), 1 otherwise.
 */
function report(
  error: unknown,
  json: boolean,
  line?: string,
  redact: Redactor = createRedactor(environmentSecrets(process.env)),
): number {
  const setup = isSetupError(error);
  const style = createStyle(terminalFeatures(process.stderr).color);
  process.stderr.write(
    `${style.red('✗')} ${redact(stripControls(line && !setup ? line : errorFields(error).message))}\n`,
  );
  if (json) process.stdout.write(`${toJsonLine({ type: 'startup-error', error }, redact)}\n`);
  return setup ? EXIT_CODES.usage : EXIT_CODES.error;
}

/** A warning line on stderr, before the run's own output. */
function warn(text: string, redact: Redactor): void {
  const style = createStyle(terminalFeatures(process.stderr).color);
  process.stderr.write(`${style.yellow('⚠')} ${redact(stripControls(text))}\n`);
}
