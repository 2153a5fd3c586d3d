// The agentloop web page: a chat over the handler's AG-UI route and its sessions, approvals and cancel
// routes. Plain DOM, no framework and nothing fetched from elsewhere, so it works offline and under a
// Content-Security-Policy that allows scripts, styles and requests from this origin only. Every text the
// agent or the server sends is set with textContent, never parsed as HTML.

const TOKEN_KEY = 'agentloop.token';
const SESSION_KEY = 'agentloop.session';
const LOOP_CONTROL = new Set(['task_completion', 'ask_question', 'converse']);

const basePath = document.querySelector('meta[name="agentloop-base"]')?.getAttribute('content') ?? '';
const elements = {
  transcript: byId('transcript'),
  sessions: byId('sessions'),
  input: byId('input'),
  composer: byId('composer'),
  send: byId('send'),
  stop: byId('stop'),
  status: byId('status'),
  usage: byId('usage'),
  notice: byId('notice'),
  newSession: byId('new-session'),
};

/** What the page knows: the token, the session shown, the run streaming into it. */
const state = {
  token: readToken(),
  sessionId: sessionStorage.getItem(SESSION_KEY) ?? undefined,
  /** @type {{ runId: string, sessionId: string } | undefined} */
  run: undefined,
  /** Answers chosen (a suggestion) while a run still streams, sent when it ends. */
  queued: undefined,
  usage: { inputTokens: 0, outputTokens: 0 },
  /** The run the page follows by reading its session, when it was reloaded while the run went on. */
  following: undefined,
};

/**
 * A random id for a session, a run or a message. crypto.randomUUID exists in secure contexts only, which
 * a page served on another address than localhost over http is not; getRandomValues works everywhere.
 */
function randomId() {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element;
}

/**
 * The token comes in the URL fragment (`#token=...`), which the browser never sends to a server or puts
 * in a Referer; it is kept in sessionStorage for reloads of this tab and taken out of the address bar,
 * so that it does not end up in the history, a bookmark or a screenshot.
 */
function readToken() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get('token');
  if (token) {
    sessionStorage.setItem(TOKEN_KEY, token);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

// ---- the server ----------------------------------------------------------------------------------

class ApiError extends Error {
  /** `details` is the error body's own fields beside its message: `code`, and `runId` for a busy session. */
  constructor(status, message, details = {}) {
    super(message);
    this.status = status;
    this.details = details;
  }
}

async function request(path, init = {}) {
  // Without a token the request still goes: an app that mounts the handler with its own authenticate
  // may sign its users in with a cookie, which the browser sends by itself.
  const headers = { ...(state.token ? { Authorization: `Bearer ${state.token}` } : {}), ...(init.headers ?? {}) };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${basePath}/api${path}`, { ...init, headers });
  if (response.ok) return response;
  const { message, details } = await errorOf(response);
  if (response.status === 401 && state.token) {
    sessionStorage.removeItem(TOKEN_KEY);
    showNotice(`${message} Open the address agentloop serve printed, with its #token=… part.`);
  } else if (response.status === 401) {
    missingToken();
  }
  throw new ApiError(response.status, message, details);
}

/** What an error response says: its message, and the fields beside it (`{ error: { code, message, ... } }`). */
async function errorOf(response) {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text);
    const message = body?.error?.message ?? body?.message ?? body?.error;
    if (typeof message === 'string') return { message, details: typeof body.error === 'object' ? body.error : {} };
  } catch {
    // Not JSON: the text itself, or the status.
  }
  return { message: text.trim() || `HTTP ${response.status}`, details: {} };
}

async function getJson(path) {
  return (await request(path)).json();
}

function postJson(path, body) {
  return request(path, { method: 'POST', body: JSON.stringify(body) });
}

/** The events of an SSE response, decoded, as they arrive. */
async function* serverEvents(response) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n');
      if (data) yield JSON.parse(data);
      end = buffer.indexOf('\n\n');
    }
  }
}

// ---- drawing ---------------------------------------------------------------------------------------

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name === 'className') node.className = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

function addEntry(className, ...children) {
  const entry = element('li', { className: `entry ${className}` }, ...children);
  elements.transcript.append(entry);
  entry.scrollIntoView({ block: 'end' });
  return entry;
}

function showNotice(message) {
  elements.notice.textContent = message;
  elements.notice.hidden = false;
}

function clearNotice() {
  elements.notice.hidden = true;
  elements.notice.textContent = '';
}

function setStatus(text) {
  elements.status.textContent = text;
}

function setRunning(run) {
  state.run = run;
  elements.stop.disabled = !run;
  elements.send.disabled = Boolean(run);
  setStatus(run ? 'Working…' : 'Idle');
}

function pretty(value) {
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2) ?? '';
}

function parseArguments(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A unified diff, each line marked added, removed or a hunk header. */
function diffView(diff) {
  const view = element('pre', { className: 'diff', 'aria-label': 'Proposed change' });
  for (const line of diff.replace(/\n$/, '').split('\n')) {
    let className;
    if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('@@')) className = 'hunk';
    else if (line.startsWith('+')) className = 'added';
    else if (line.startsWith('-')) className = 'removed';
    view.append(element('span', { className }, line));
  }
  return view;
}

/** The tokens this tab's runs of the session used, and how many the conversation holds when known. */
/**
 * The diff of an edit from its arguments, as the server's approval view makes it: what a pending approval
 * shows after a reload, where the session lists the call's arguments alone.
 */
function diffOfArguments(args) {
  if (!args || typeof args !== 'object' || typeof args.path !== 'string') return undefined;
  const lines = (prefix, text) =>
    text
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => prefix + line);
  if (typeof args.patch === 'string') return args.patch;
  if (typeof args.old_text === 'string' && typeof args.new_text === 'string') {
    return [
      `--- a/${args.path}`,
      `+++ b/${args.path}`,
      ...lines('-', args.old_text),
      ...lines('+', args.new_text),
    ].join('\n');
  }
  if (typeof args.content === 'string') return [`+++ b/${args.path}`, ...lines('+', args.content)].join('\n');
  return undefined;
}

/** The title the server's approval view gives a call, for a pending approval read back after a reload. */
function approvalTitle(toolName, request) {
  const args = request.arguments && typeof request.arguments === 'object' ? request.arguments : {};
  if (typeof request.command === 'string') return `Run ${request.command}`;
  if (typeof args.path === 'string') {
    if (typeof args.patch === 'string') return `Patch ${args.path}`;
    if (typeof args.old_text === 'string') return `Edit ${args.path}`;
    if (typeof args.content === 'string') return `Write ${args.path}`;
  }
  return `Call ${toolName}`;
}

function showUsage(conversationTokens) {
  const { inputTokens, outputTokens } = state.usage;
  const parts = [];
  if (inputTokens + outputTokens > 0) {
    parts.push(`${inputTokens.toLocaleString()} in · ${outputTokens.toLocaleString()} out tokens`);
  }
  if (typeof conversationTokens === 'number' && conversationTokens > 0) {
    parts.push(`${conversationTokens.toLocaleString()} tokens in the conversation`);
  }
  elements.usage.textContent = parts.join(' · ');
}

// ---- one run's events ------------------------------------------------------------------------------

/** Draws the events of one run as they arrive: text, reasoning, tool cards, approvals, questions. */
function createRunView() {
  const texts = new Map();
  const reasonings = new Map();
  const tools = new Map();
  let lastReasoning;
  /** What the current model call streamed: a retry that discards its output voids these. */
  let stepEntries = [];

  const textOf = (messageId) => {
    let entry = texts.get(messageId);
    if (!entry) {
      entry = addEntry('assistant');
      texts.set(messageId, entry);
      stepEntries.push(entry);
    }
    return entry;
  };
  const reasoningOf = (messageId) => {
    let text = reasonings.get(messageId);
    if (!text) {
      text = element('div', { className: 'reasoning-text' });
      stepEntries.push(
        addEntry(
          '',
          element('details', { className: 'reasoning', open: true }, element('summary', {}, 'Thinking'), text),
        ),
      );
      reasonings.set(messageId, text);
    }
    lastReasoning = text;
    return text;
  };

  return (event) => {
    switch (event.type) {
      case 'RUN_STARTED':
        setStatus('Working…');
        break;
      case 'TEXT_MESSAGE_START':
        textOf(event.messageId);
        break;
      case 'TEXT_MESSAGE_CONTENT':
      case 'TEXT_MESSAGE_CHUNK':
        textOf(event.messageId).append(event.delta ?? '');
        break;
      case 'REASONING_MESSAGE_START':
      case 'THINKING_TEXT_MESSAGE_START':
        reasoningOf(event.messageId ?? 'thinking');
        break;
      case 'REASONING_MESSAGE_CONTENT':
      case 'REASONING_MESSAGE_CHUNK':
        reasoningOf(event.messageId ?? 'thinking').append(event.delta ?? '');
        break;
      case 'THINKING_TEXT_MESSAGE_CONTENT':
        (lastReasoning ?? reasoningOf('thinking')).append(event.delta ?? '');
        break;
      case 'REASONING_END':
      case 'THINKING_END':
        lastReasoning?.closest('details')?.removeAttribute('open');
        break;
      case 'TOOL_CALL_START':
        tools.set(event.toolCallId, { name: event.toolCallName, args: '', card: undefined });
        if (!LOOP_CONTROL.has(event.toolCallName)) {
          const card = toolCard(event.toolCallName);
          tools.get(event.toolCallId).card = card;
          stepEntries.push(card.entry);
        }
        break;
      case 'TOOL_CALL_ARGS': {
        const tool = tools.get(event.toolCallId);
        if (tool) tool.args += event.delta ?? '';
        break;
      }
      case 'TOOL_CALL_END': {
        const tool = tools.get(event.toolCallId);
        if (tool?.card) tool.card.setArguments(tool.args);
        else if (tool) loopControl(tool.name, parseArguments(tool.args));
        break;
      }
      case 'TOOL_CALL_RESULT': {
        const tool = tools.get(event.toolCallId);
        tool?.card?.setResult(event.content ?? '', event.isError === true || event.error === true);
        stepEntries = [];
        break;
      }
      case 'CUSTOM':
        if (event.name === 'agentloop.approval-requested') {
          waitOn(event.value?.requestId, tools.get(event.value?.toolCallId)?.card);
        }
        if (event.name === 'agentloop.elicitation-requested') {
          waitOn(event.value?.requestId, tools.get(event.value?.toolCallId)?.card, 'waiting for your input…');
        }
        if (event.name === 'agentloop.approval-resolved' || event.name === 'agentloop.elicitation-resolved') {
          waitEnded(event.value?.requestId);
        }
        if (event.name === 'agentloop.retry') {
          retried(event.value ?? {}, stepEntries);
          stepEntries = [];
        }
        custom(event.name, event.value);
        break;
      case 'RUN_FINISHED':
        finished(event);
        break;
      case 'RUN_ERROR':
        addEntry('error', event.message ?? 'The run failed.');
        break;
      default:
        break;
    }
  };
}

/** The three loop-control tools are the agent speaking to the user, not tool calls to show as cards. */
function loopControl(name, args) {
  if (!args || typeof args !== 'object') return;
  if (name === 'task_completion' && typeof args.result === 'string') {
    const artifacts = Array.isArray(args.artifacts) && args.artifacts.length > 0 ? args.artifacts : undefined;
    // As the live stream shows it: the agent's message.
    addEntry(
      'assistant',
      args.result,
      artifacts ? element('div', { className: 'artifacts' }, `Artifacts: ${artifacts.join(', ')}`) : undefined,
    );
  } else if (name === 'converse' && typeof args.message === 'string') {
    addEntry('assistant', args.message);
  } else if (name === 'ask_question' && typeof args.question === 'string') {
    addEntry('assistant', args.question);
  }
}

function custom(name, value) {
  if (name === 'agentloop.approval-requested') approvalPanel(value ?? {});
  else if (name === 'agentloop.question') questionPanel(value ?? {}, { asked: true });
  else if (name === 'agentloop.elicitation-requested') elicitationPanel(value ?? {});
  else if (name === 'agentloop.elicitation-resolved') elicitationResolved(value ?? {});
  else if (name === 'agentloop.approval-resolved') approvalResolved(value ?? {});
}

/** A model call failed and is tried again; with `discardOutput`, what it streamed so far is void. */
function retried(retry, entries) {
  setStatus(`Retrying the model call (attempt ${retry.attempt ?? 1})…`);
  if (!retry.discardOutput || entries.length === 0) return;
  for (const entry of entries) {
    entry.classList.add('discarded');
    entry.setAttribute('title', 'Thrown away: the model call failed and was tried again');
  }
  addEntry(
    'info',
    `The model call failed${retry.code ? ` (${retry.code})` : ''}; what it wrote above is thrown away and it is tried again.`,
  );
}

function finished(event) {
  // The run's usage: AG-UI's RUN_FINISHED carries it as a list of entries.
  for (const usage of Array.isArray(event.usage) ? event.usage : []) {
    state.usage.inputTokens += usage.inputTokens ?? 0;
    state.usage.outputTokens += usage.outputTokens ?? 0;
  }
  showUsage();
  const exit = event.result?.exit;
  if (exit === 'cancelled') addEntry('info', 'Stopped.');
  else if (exit === 'max_iterations') addEntry('info', 'The agent reached its iteration limit.');
}

/** The cards of tool calls waiting on the user, by the request's id: its answer sets them running again. */
const waitingCards = new Map();

/** A tool call's card shows it waits on the request `requestId` (an approval, by default). */
function waitOn(requestId, card, text) {
  if (!card) return;
  card.setWaiting(text);
  if (typeof requestId === 'string') waitingCards.set(requestId, card);
}

/** The request was answered (here or elsewhere), timed out or cancelled: the call runs on, or ends. */
function waitEnded(requestId) {
  const card = waitingCards.get(requestId);
  waitingCards.delete(requestId);
  card?.setRunning();
}

/** A compact card for one tool call: its name, arguments and result, folded. */
function toolCard(name) {
  const badge = element('span', { className: 'state' }, 'running…');
  const body = element('div');
  const details = element('details', { className: 'tool' }, element('summary', {}, name, badge), body);
  const entry = addEntry('', details);
  let waiting = false;
  return {
    entry,
    setWaiting(text = 'waiting for approval…') {
      waiting = true;
      badge.textContent = text;
    },
    /** Back to running once the answer came; a result that came first is not taken back. */
    setRunning() {
      if (!waiting) return;
      waiting = false;
      badge.textContent = 'running…';
    },
    setArguments(args) {
      body.append(element('pre', { 'aria-label': 'Arguments' }, pretty(args)));
    },
    setResult(content, failed) {
      waiting = false;
      badge.textContent = failed ? 'failed' : 'done';
      badge.classList.toggle('failed', failed);
      body.append(element('pre', { 'aria-label': 'Result' }, typeof content === 'string' ? content : pretty(content)));
    },
  };
}

// ---- approvals and questions -----------------------------------------------------------------------

const APPROVAL_CHOICES = [
  ['allow-once', 'Allow once', 'Allowed once'],
  ['allow-session', 'Allow for the session', 'Allowed for the session'],
  ['deny', 'Deny', 'Denied'],
];

/** The panels of approvals not answered here yet, by request id: an answer from elsewhere closes them. */
const openApprovals = new Map();

/** Another tab, the timeout or a cancel of the run settled an approval whose panel is open here. */
function approvalResolved(value) {
  const close = openApprovals.get(value.requestId);
  if (!close) return;
  if (value.decision === 'allow-once' || value.decision === 'allow-session') {
    close(`${APPROVAL_CHOICES.find(([decision]) => decision === value.decision)[2]}: answered elsewhere.`);
  } else if (value.decision === 'deny') close('Denied: answered elsewhere, or no answer came in time.');
  else close('No longer waiting: the run stopped.');
}

/** An approval request: the diff of an edit, the command of a command, the arguments of anything else. */
function approvalPanel(request) {
  const sessionId = state.sessionId;
  const toolName = request.toolName ?? request.name ?? 'a tool';
  const title = request.title ?? approvalTitle(toolName, request);
  const diff = request.diff ?? diffOfArguments(request.arguments);
  let preview;
  if (typeof diff === 'string' && diff) preview = diffView(diff);
  else if (typeof request.command === 'string' && request.command)
    preview = element('pre', { className: 'command', 'aria-label': 'Command' }, request.command);
  else preview = element('pre', { className: 'command', 'aria-label': 'Arguments' }, pretty(request.arguments ?? {}));
  const reason = element('input', {
    type: 'text',
    placeholder: 'Why not (optional, the agent sees it)',
    'aria-label': 'Reason for denying',
  });
  const choices = element('div', { className: 'choices' });
  // An approval nobody answers is denied when it expires, so a closed tab never holds the session.
  const expiresAt = request.expiresAt === undefined ? undefined : new Date(request.expiresAt);
  const expiry =
    expiresAt && !Number.isNaN(expiresAt.getTime())
      ? element(
          'p',
          { className: 'expires' },
          `Denied at ${expiresAt.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })} unless answered.`,
        )
      : undefined;
  const panel = element(
    'section',
    { className: 'approval', 'aria-label': 'Approval request' },
    element('h3', {}, title),
    preview,
    choices,
    expiry,
  );
  const close = (text) => {
    openApprovals.delete(request.requestId);
    choices.replaceWith(element('p', { className: 'answered' }, text));
    expiry?.remove();
  };
  const buttons = APPROVAL_CHOICES.map(([decision, label, done]) =>
    element(
      'button',
      {
        type: 'button',
        className: decision === 'deny' ? 'danger' : decision === 'allow-session' ? 'secondary' : undefined,
        onclick: async () => {
          for (const button of buttons) button.disabled = true;
          // The stream's approval-resolved for this answer may come before the response does.
          openApprovals.delete(request.requestId);
          try {
            const message = reason.value.trim();
            await postJson(
              `/sessions/${encodeURIComponent(sessionId)}/approvals/${encodeURIComponent(request.requestId)}`,
              decision === 'deny' && message ? { decision, message } : { decision },
            );
            close(done);
            // At once, not only when the stream's approval-resolved comes.
            waitEnded(request.requestId);
            (state.run ? elements.stop : elements.input).focus();
          } catch (error) {
            for (const button of buttons) button.disabled = false;
            openApprovals.set(request.requestId, close);
            showNotice(`The answer was not taken: ${error.message}`);
          }
        },
      },
      label,
    ),
  );
  choices.append(...buttons, reason);
  if (typeof request.requestId === 'string') openApprovals.set(request.requestId, close);
  addEntry('', panel);
  buttons[0].focus();
}

/**
 * What answers a question: its suggestions as buttons (typing an answer works as well). The agent's own
 * question (an `ask_question` exit) was shown as its message already, and the next message answers it;
 * a sub-agent's question (with a `requestId`) waits inside the run and is answered through its route.
 */
function questionPanel(payload, { asked = false } = {}) {
  const sessionId = state.sessionId;
  const suggestions = Array.isArray(payload.suggestions) ? payload.suggestions : [];
  const subagent = typeof payload.requestId === 'string';
  const panel = element('section', { className: 'question', 'aria-label': 'Question from the agent' });
  panel.append(
    element(
      'h3',
      {},
      subagent || !asked ? (payload.question ?? 'The agent asks:') : 'Answer with a suggestion, or type your own',
    ),
  );
  if (suggestions.length === 0 && !subagent) {
    if (!asked) addEntry('', panel);
    elements.input.focus();
    return;
  }
  const choices = element('div', { className: 'choices' });
  const settle = async (text) => {
    for (const button of choices.querySelectorAll('button, input')) button.disabled = true;
    if (!subagent) return answer(text);
    try {
      await postJson(`/sessions/${encodeURIComponent(sessionId)}/questions/${encodeURIComponent(payload.requestId)}`, {
        answer: text,
      });
      choices.replaceWith(element('p', { className: 'answered' }, `Answered: ${text}`));
    } catch (error) {
      for (const button of choices.querySelectorAll('button, input')) button.disabled = false;
      showNotice(`The answer was not taken: ${error.message}`);
    }
  };
  const buttons = suggestions.map((suggestion) =>
    element('button', { type: 'button', className: 'secondary', onclick: () => void settle(suggestion) }, suggestion),
  );
  choices.append(...buttons);
  if (subagent) {
    const typed = element('input', { type: 'text', placeholder: 'Your answer', 'aria-label': 'Your answer' });
    typed.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && typed.value.trim()) void settle(typed.value.trim());
    });
    choices.append(typed);
  }
  panel.append(choices);
  addEntry('', panel);
  (buttons[0] ?? choices.querySelector('input'))?.focus();
}

// ---- elicitations: a tool (an MCP server) asks the user for input -----------------------------------

/** The panels of elicitations not answered yet, by request id: an answer from elsewhere closes them. */
const openElicitations = new Map();

const ELICITATION_DONE = { accept: 'Sent.', decline: 'Declined.', cancel: 'Cancelled.' };

/** When a request expires: "Cancelled at 12:05 unless answered." */
function expiryNote(expiresAt, verb) {
  const when = expiresAt === undefined ? undefined : new Date(expiresAt);
  if (!when || Number.isNaN(when.getTime())) return undefined;
  const time = when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return element('p', { className: 'expires' }, `${verb} at ${time} unless answered.`);
}

/**
 * A form for an elicitation's schema, or a page to open for its URL, with Submit (Done) / Decline /
 * Cancel. Everything the server sent (its name, message, titles, descriptions, the URL) is shown as text.
 * A URL is never opened by the page: it is a link the user may follow, in a new tab without a referrer
 * or a handle back to this page, with its host spelt out, so that a look-alike address is seen for one.
 */
function elicitationPanel(request) {
  const requestId = request.requestId;
  if (typeof requestId !== 'string' || openElicitations.has(requestId)) return;
  const sessionId = state.sessionId;
  const who =
    typeof request.server === 'string' && request.server
      ? request.server
      : (request.toolName ?? request.name ?? 'A tool');
  const headingId = `elicitation-${randomId()}`;
  const panel = element('section', { className: 'elicitation', 'aria-labelledby': headingId });
  panel.append(
    element('h3', { id: headingId }, element('span', { className: 'who' }, who), ' asks for your input'),
    element('p', { className: 'message' }, typeof request.message === 'string' ? request.message : ''),
  );
  const url = request.mode === 'url' ? pageLink(request.url) : undefined;
  if (url) panel.append(url);
  const form = element('form', { className: 'elicitation-form', novalidate: false });
  const fields = request.mode === 'url' ? [] : formFields(request.schema);
  for (const field of fields) form.append(field.node);
  const skipped = request.mode === 'url' ? [] : skippedFields(request.schema);
  if (skipped.length > 0) {
    form.append(
      element('p', { className: 'help' }, `Left out, as this page cannot ask for them: ${skipped.join(', ')}.`),
    );
  }
  const actions = element('div', { className: 'choices' });
  const submit = element('button', { type: 'submit' }, request.mode === 'url' ? 'Done' : 'Submit');
  const decline = element('button', { type: 'button', className: 'secondary' }, 'Decline');
  const cancel = element('button', { type: 'button', className: 'danger' }, 'Cancel');
  actions.append(submit, decline, cancel);
  form.append(actions);
  const expiry = expiryNote(request.expiresAt, 'Cancelled');
  panel.append(form, ...(expiry ? [expiry] : []));

  const controls = () => form.querySelectorAll('input, select, button');
  const close = (text) => {
    openElicitations.delete(requestId);
    for (const control of controls()) control.disabled = true;
    actions.replaceWith(element('p', { className: 'answered' }, text));
    expiry?.remove();
  };
  const settle = async (action) => {
    let body = { action };
    if (action === 'accept') {
      if (!form.reportValidity()) return;
      body = { action, content: Object.fromEntries(fields.flatMap((field) => field.value())) };
    }
    for (const control of controls()) control.disabled = true;
    try {
      await postJson(`/sessions/${encodeURIComponent(sessionId)}/elicitations/${encodeURIComponent(requestId)}`, body);
      close(ELICITATION_DONE[action]);
      (state.run ? elements.stop : elements.input).focus();
    } catch (error) {
      for (const control of controls()) control.disabled = false;
      showNotice(`The answer was not taken: ${error.message}`);
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void settle('accept');
  });
  decline.addEventListener('click', () => void settle('decline'));
  cancel.addEventListener('click', () => void settle('cancel'));
  // Esc in the form cancels this request only, not the whole run (as Esc elsewhere does).
  form.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    void settle('cancel');
  });
  openElicitations.set(requestId, close);
  addEntry('', panel);
  (form.querySelector('input, select') ?? submit).focus();
}

/** Another answer, the timeout or a cancel of the run settled a request whose panel is open. */
function elicitationResolved(value) {
  const close = openElicitations.get(value.requestId);
  if (close)
    close(
      value.action === 'cancel'
        ? 'Cancelled: no answer came in time, or the run stopped.'
        : (ELICITATION_DONE[value.action] ?? 'Answered.'),
    );
}

/** The page an elicitation asks to open: a link (new tab, no referrer, no opener) and its host in words. */
function pageLink(url) {
  let parsed;
  try {
    parsed = new URL(String(url));
  } catch {
    return element('p', { className: 'url' }, `The server sent an address that is not valid: ${String(url ?? '')}`);
  }
  // Only web pages are links: a javascript: or data: address is shown, never made something to click.
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return element(
      'p',
      { className: 'url' },
      `The server asks to open an address that is not a web page: ${parsed.href}`,
    );
  }
  return element(
    'div',
    { className: 'url' },
    element('p', { className: 'host' }, 'Opens a page on ', element('strong', {}, parsed.host)),
    element('a', { href: parsed.href, target: '_blank', rel: 'noopener noreferrer' }, parsed.href),
  );
}

/** The choices of an enum-like schema: `enum` (with the older `enumNames`), or `oneOf`/`anyOf` of consts. */
function choicesOf(schema) {
  if (!schema || typeof schema !== 'object') return undefined;
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, index) => ({ value: String(value), label: String(names[index] ?? value) }));
  }
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (options?.every((option) => option && typeof option === 'object' && 'const' in option)) {
    return options.map((option) => ({ value: String(option.const), label: String(option.title ?? option.const) }));
  }
  return undefined;
}

function properties(schema) {
  return schema && typeof schema === 'object' && schema.properties && typeof schema.properties === 'object'
    ? Object.entries(schema.properties)
    : [];
}

function skippedFields(schema) {
  return properties(schema)
    .filter(([, property]) => !fieldKind(property))
    .map(([name, property]) => property?.title ?? name);
}

function fieldKind(property) {
  if (!property || typeof property !== 'object') return undefined;
  if (property.type === 'array') return choicesOf(property.items) ? 'choices' : undefined;
  if (choicesOf(property)) return 'choice';
  if (property.type === 'string') return 'text';
  if (property.type === 'number' || property.type === 'integer') return 'number';
  if (property.type === 'boolean') return 'boolean';
  return undefined;
}

const INPUT_TYPES = { email: 'email', uri: 'url', date: 'date' };

/**
 * The form's fields, in the schema's order: each `{ node, value() }`, where `value()` gives the
 * `[name, value]` pairs to send (none for an empty optional field, whose default the server fills in).
 * Labels are the titles, help the descriptions, defaults pre-filled, required fields marked, and the
 * schema's limits are the inputs' own (min, max, minlength, maxlength), so the browser checks them.
 */
function formFields(schema) {
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  return properties(schema).flatMap(([name, property]) => {
    const kind = fieldKind(property);
    if (!kind) return [];
    const id = `field-${randomId()}`;
    const isRequired = required.has(name);
    const title = typeof property.title === 'string' && property.title ? property.title : name;
    const label = [
      title,
      isRequired ? element('span', { className: 'required', 'aria-hidden': 'true' }, ' *') : undefined,
    ];
    const help =
      typeof property.description === 'string' && property.description
        ? element('p', { className: 'help', id: `${id}-help` }, property.description)
        : undefined;
    const describedBy = help ? `${id}-help` : undefined;
    if (kind === 'choices') {
      const options = choicesOf(property.items);
      const defaults = new Set(Array.isArray(property.default) ? property.default.map(String) : []);
      const boxes = options.map((option) =>
        element('input', { type: 'checkbox', value: option.value, checked: defaults.has(option.value) }),
      );
      const group = element(
        'fieldset',
        { className: 'field choices-field', 'aria-describedby': describedBy },
        element('legend', {}, ...label),
        ...options.map((option, index) => element('label', { className: 'check' }, boxes[index], ` ${option.label}`)),
        help,
      );
      const minItems = Math.max(Number.isInteger(property.minItems) ? property.minItems : 0, isRequired ? 1 : 0);
      const maxItems = Number.isInteger(property.maxItems) ? property.maxItems : undefined;
      const check = () => {
        const count = boxes.filter((box) => box.checked).length;
        const problem =
          count < minItems
            ? `Pick at least ${minItems}.`
            : maxItems !== undefined && count > maxItems
              ? `Pick at most ${maxItems}.`
              : '';
        for (const box of boxes) box.setCustomValidity('');
        boxes[0]?.setCustomValidity(problem);
      };
      for (const box of boxes) box.addEventListener('change', check);
      check();
      return [
        {
          node: group,
          value: () => {
            const picked = boxes.filter((box) => box.checked).map((box) => box.value);
            return picked.length > 0 || isRequired ? [[name, picked]] : [];
          },
        },
      ];
    }
    let input;
    let value;
    if (kind === 'boolean') {
      input = element('input', {
        type: 'checkbox',
        id,
        checked: property.default === true,
        'aria-describedby': describedBy,
      });
      value = () => [[name, input.checked]];
      return [
        {
          node: element(
            'div',
            { className: 'field check-field' },
            element('label', { className: 'check', for: id }, input, ' ', ...label),
            help,
          ),
          value,
        },
      ];
    }
    if (kind === 'choice') {
      const options = choicesOf(property);
      const fallback = property.default === undefined ? undefined : String(property.default);
      input = element(
        'select',
        { id, required: isRequired, 'aria-describedby': describedBy },
        // An empty choice unless one is preselected: a required field must then be picked on purpose.
        fallback === undefined ? element('option', { value: '' }, isRequired ? 'Choose…' : '(none)') : undefined,
        ...options.map((option) =>
          element('option', { value: option.value, selected: option.value === fallback }, option.label),
        ),
      );
      value = () => (input.value === '' ? [] : [[name, input.value]]);
    } else if (kind === 'number') {
      input = element('input', {
        type: 'number',
        id,
        required: isRequired,
        step: property.type === 'integer' ? '1' : 'any',
        min: typeof property.minimum === 'number' ? property.minimum : undefined,
        max: typeof property.maximum === 'number' ? property.maximum : undefined,
        value: typeof property.default === 'number' ? property.default : undefined,
        'aria-describedby': describedBy,
      });
      value = () => (input.value === '' ? [] : [[name, Number(input.value)]]);
    } else {
      input = element('input', {
        type: INPUT_TYPES[property.format] ?? 'text',
        id,
        required: isRequired,
        minlength: Number.isInteger(property.minLength) ? property.minLength : undefined,
        maxlength: Number.isInteger(property.maxLength) ? property.maxLength : undefined,
        value: typeof property.default === 'string' ? property.default : undefined,
        'aria-describedby': describedBy,
      });
      value = () => (input.value === '' ? [] : [[name, input.value]]);
    }
    return [
      {
        node: element('div', { className: 'field' }, element('label', { for: id }, ...label), input, help),
        value,
      },
    ];
  });
}

/** Sends an answer now, or when the run that asked has ended. */
function answer(text) {
  if (state.run) state.queued = text;
  else void send(text);
}

// ---- runs ------------------------------------------------------------------------------------------

async function send(text) {
  if (state.run) return;
  clearNotice();
  if (!state.sessionId) selectSession(randomId());
  const sessionId = state.sessionId;
  const runId = randomId();
  const sent = addEntry('user', text);
  let busy;
  setRunning({ runId, sessionId });
  try {
    const response = await request('/agui', {
      method: 'POST',
      headers: { Accept: 'text/event-stream' },
      body: JSON.stringify({
        threadId: sessionId,
        runId,
        state: {},
        messages: [{ id: randomId(), role: 'user', content: text }],
        tools: [],
        context: [],
        forwardedProps: {},
      }),
    });
    // The run has started: its session is listed from now on, titled from this message.
    void loadSessions();
    const view = createRunView();
    let ended = false;
    for await (const event of serverEvents(response)) {
      if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') ended = true;
      view(event);
    }
    if (!ended) throw new Error('the connection to the server ended before the run did');
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      // Another tab runs this session: the message was not taken, so it goes back where it was typed,
      // and the page follows that run (Stop stops it) as it does after a reload.
      sent.remove();
      if (!elements.input.value) elements.input.value = text;
      busy = error.details.runId ?? 'another run';
    } else if (!(error instanceof ApiError && error.status === 401))
      // fetch reports a dropped connection as a TypeError whose message ("network error") says little.
      addEntry(
        'error',
        `The run failed: ${error instanceof TypeError ? 'the connection to the server was lost' : error.message}. Reload the page to see where the session got to.`,
      );
  } finally {
    setRunning(undefined);
    void loadSessions();
  }
  if (busy) {
    await openSession(sessionId);
    showNotice(`This session is busy with run ${busy} in another tab or window: wait for it to end, or stop it.`);
    return;
  }
  const queued = state.queued;
  state.queued = undefined;
  if (queued !== undefined) await send(queued);
  else elements.input.focus();
}

async function stop() {
  const run = state.run ?? state.following;
  if (!run) return;
  elements.stop.disabled = true;
  setStatus('Stopping…');
  try {
    await postJson(`/sessions/${encodeURIComponent(run.sessionId)}/cancel`, {});
  } catch (error) {
    elements.stop.disabled = false;
    showNotice(`The run could not be stopped: ${error.message}`);
  }
}

// ---- sessions --------------------------------------------------------------------------------------

function selectSession(sessionId) {
  state.sessionId = sessionId;
  if (sessionId) sessionStorage.setItem(SESSION_KEY, sessionId);
  else sessionStorage.removeItem(SESSION_KEY);
  for (const button of elements.sessions.querySelectorAll('button')) {
    button.setAttribute('aria-current', String(button.dataset.sessionId === sessionId));
  }
}

async function loadSessions() {
  let sessions;
  try {
    const body = await getJson('/sessions');
    sessions = Array.isArray(body) ? body : (body.sessions ?? []);
  } catch {
    return;
  }
  elements.sessions.replaceChildren(
    ...sessions.map((session) => {
      const when = session.updatedAt ?? session.createdAt;
      return element(
        'li',
        {},
        element(
          'button',
          {
            type: 'button',
            'data-session-id': session.id,
            'aria-current': String(session.id === state.sessionId),
            onclick: () => void openSession(session.id),
          },
          session.title ?? `Untitled (${session.id.slice(0, 8)})`,
          when ? element('span', { className: 'when' }, new Date(when).toLocaleString()) : undefined,
        ),
      );
    }),
  );
}

/**
 * Shows a session: its saved messages, and what its run waits on. A run still going (the page was
 * reloaded while it ran) streams to no one here: the page shows its approvals and follows it by reading
 * the session again until it ends.
 */
async function openSession(sessionId) {
  if (state.run) return;
  clearNotice();
  let body;
  try {
    body = await getJson(`/sessions/${encodeURIComponent(sessionId)}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      selectSession(undefined);
      return;
    }
    showNotice(`The session could not be opened: ${error.message}`);
    return;
  }
  if (state.sessionId !== sessionId) state.usage = { inputTokens: 0, outputTokens: 0 };
  elements.transcript.replaceChildren();
  openElicitations.clear();
  openApprovals.clear();
  waitingCards.clear();
  selectSession(sessionId);
  drawMessages(body.messages ?? []);
  // The store has a run's turn only once the run commits it, so the message that started a run still
  // going comes from the run, after the saved ones.
  if (body.run?.input) addEntry('user', body.run.input);
  if (body.pendingQuestion) questionPanel(body.pendingQuestion, { asked: true });
  for (const approval of body.run?.approvals ?? []) approvalPanel(approval);
  for (const question of body.run?.questions ?? []) questionPanel(question);
  for (const elicitation of body.run?.elicitations ?? []) elicitationPanel(elicitation);
  showUsage(body.session?.tokenCount);
  state.following = body.run ? { sessionId, runId: body.run.runId, shown: body.run.approvals?.length ?? 0 } : undefined;
  if (state.following) {
    setStatus('A run of this session is going: its progress shows as it is saved.');
    elements.stop.disabled = false;
    elements.send.disabled = true;
    setTimeout(() => void follow(sessionId), FOLLOW_INTERVAL_MS);
  }
}

const FOLLOW_INTERVAL_MS = 1500;

async function follow(sessionId) {
  if (!state.following || state.following.sessionId !== sessionId) return;
  let body;
  try {
    body = await getJson(`/sessions/${encodeURIComponent(sessionId)}`);
  } catch {
    state.following = undefined;
    return;
  }
  if (!body.run || body.run.runId !== state.following.runId) {
    state.following = undefined;
    elements.stop.disabled = true;
    elements.send.disabled = false;
    await openSession(sessionId);
    return;
  }
  const approvals = body.run.approvals ?? [];
  for (const approval of approvals.slice(state.following.shown)) approvalPanel(approval);
  state.following.shown = approvals.length;
  // Panels open once per request id; one that no longer waits (answered, timed out) is closed.
  const waiting = new Set((body.run.elicitations ?? []).map((elicitation) => elicitation.requestId));
  for (const elicitation of body.run.elicitations ?? []) elicitationPanel(elicitation);
  for (const requestId of [...openElicitations.keys()]) {
    if (!waiting.has(requestId))
      openElicitations.get(requestId)?.('No longer waiting: answered elsewhere, or it timed out.');
  }
  setTimeout(() => void follow(sessionId), FOLLOW_INTERVAL_MS);
}

/** Draws saved messages: agentloop's (parts) or AG-UI's (text, toolCalls, tool results by id). */
function drawMessages(messages) {
  const cards = new Map();
  for (const message of messages) {
    const parts = Array.isArray(message.content)
      ? message.content
      : [
          ...(typeof message.content === 'string' && message.content && message.role !== 'tool'
            ? [{ type: 'text', text: message.content }]
            : []),
          ...(message.toolCalls ?? []).map((call) => ({
            type: 'tool-call',
            toolCallId: call.id,
            toolName: call.function?.name,
            arguments: parseArguments(call.function?.arguments ?? '') ?? call.function?.arguments,
          })),
          ...(message.role === 'tool'
            ? [{ type: 'tool-result', toolCallId: message.toolCallId, content: message.content, isError: false }]
            : []),
        ];
    for (const part of parts) {
      if (part.type === 'text' && message.role === 'user') addEntry('user', part.text);
      else if (part.type === 'text' && message.role === 'assistant') addEntry('assistant', part.text);
      else if (part.type === 'thinking' && part.text) {
        addEntry('', element('details', { className: 'reasoning' }, element('summary', {}, 'Thinking'), part.text));
      } else if (part.type === 'tool-call') {
        if (LOOP_CONTROL.has(part.toolName)) loopControl(part.toolName, part.arguments);
        else {
          const card = toolCard(part.toolName);
          card.setArguments(part.arguments);
          cards.set(part.toolCallId, card);
        }
      } else if (part.type === 'tool-result') {
        cards.get(part.toolCallId)?.setResult(part.content, part.isError === true);
      }
    }
  }
}

function missingToken() {
  showNotice('This page needs its access token: open the address agentloop serve printed (it ends with #token=…).');
}

// ---- keyboard and buttons --------------------------------------------------------------------------

elements.composer.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = elements.input.value.trim();
  if (!text || state.run) return;
  elements.input.value = '';
  void send(text);
});
elements.input.addEventListener('keydown', (event) => {
  // Enter sends, Shift+Enter is a new line; a composition (an IME) in progress keeps its Enter.
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    elements.composer.requestSubmit();
  }
});
elements.stop.addEventListener('click', () => void stop());
elements.newSession.addEventListener('click', () => {
  if (state.run) return;
  state.following = undefined;
  state.usage = { inputTokens: 0, outputTokens: 0 };
  elements.stop.disabled = true;
  elements.send.disabled = false;
  clearNotice();
  selectSession(undefined);
  elements.transcript.replaceChildren();
  openElicitations.clear();
  openApprovals.clear();
  waitingCards.clear();
  elements.usage.textContent = '';
  elements.input.focus();
});
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && (state.run || state.following)) void stop();
});

void loadSessions();
if (state.sessionId) void openSession(state.sessionId);
elements.input.focus();
