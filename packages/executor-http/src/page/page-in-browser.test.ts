// The web page in a real headless Chromium, against the handler in a real Node server on 127.0.0.1 with
// scripted agents: what a person sees and does, one state at a time, each saved as a screenshot under
// test-artifacts/page/. The tests wait for what the page shows, never for a number of milliseconds.
import { AgentloopError } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { defineTool } from '@agentloop/tools';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chromiumAvailable, launchChromium, screenshot } from '../test-support/chromium.js';
import { type ListeningServer, listen } from '../test-support/listen.js';
import {
  bookTableTool,
  TEST_TOKEN,
  type TestServer,
  type TestServerOptions,
  testServer,
} from '../test-support/test-server.js';

const finish = (result: string): ScriptStep => ({ toolCalls: [{ name: 'task_completion', arguments: { result } }] });
const EDIT: ScriptStep = {
  text: 'I will change the port.',
  toolCalls: [
    {
      name: 'edit_file',
      arguments: { path: 'src/app.ts', old_text: 'const port = 80;', new_text: 'const port = 4680;' },
    },
  ],
};

/** A promise the test resolves with `open`: a tool waits on it, to go on working after the user's answer. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** A tool the approval policy asks about, which runs until `finished` resolves. */
function deployTool(finished: Promise<void>) {
  return defineTool({
    name: 'deploy',
    description: 'Deploys the site.',
    parameters: z.object({}),
    annotations: { readOnly: false, destructive: true, openWorld: true },
    execute: async () => {
      await finished;
      return 'deployed';
    },
  });
}

let browser: Browser | undefined;
let context: BrowserContext | undefined;
let server: TestServer | undefined;
let listening: ListeningServer | undefined;
/** Errors the page logged or threw (a script error, a request the CSP blocked): none is expected. */
let pageErrors: string[] = [];

beforeAll(async () => {
  if (chromiumAvailable()) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  await context?.close();
  await listening?.close();
  await server?.close();
  context = undefined;
  listening = undefined;
  server = undefined;
});

/** Starts a server with these scripts and opens the page with `fragment` (the token's, by default). */
async function openPage(
  options: TestServerOptions,
  fragment = `#token=${TEST_TOKEN}`,
  cookie?: { name: string; value: string },
): Promise<Page> {
  server = testServer(options);
  listening = await listen(server.handler);
  context = await (browser as Browser).newContext({ viewport: { width: 1100, height: 760 } });
  if (cookie) await context.addCookies([{ ...cookie, url: listening.url }]);
  const page = await context.newPage();
  pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(`${listening.url}/${fragment}`);
  return page;
}

/** Types a message and sends it with Enter, as a person at the keyboard does. */
async function sendMessage(page: Page, text: string): Promise<void> {
  await page.locator('#input').fill(text);
  await page.locator('#input').press('Enter');
}

const textOf = (page: Page, selector: string) => page.locator(selector).allTextContents();
const runIdOf = (sessionId: string) => server?.handler.runs.runningRunId(sessionId);
// Expressions, not functions: the page's globals (sessionStorage, document) are not in this package's types.
const stored = (page: Page, key: string) =>
  page.evaluate<string | null>(`sessionStorage.getItem(${JSON.stringify(key)})`);

describe.skipIf(!chromiumAvailable())('the web page in Chromium', { timeout: 30_000 }, () => {
  it('takes the token from the address fragment, keeps it for reloads and takes it out of the address bar', async () => {
    const page = await openPage({ scripts: { '*': [] } });
    await page.locator('#sessions').waitFor({ state: 'attached' });
    expect(page.url()).toBe(`${listening?.url}/`);
    expect(await stored(page, 'agentloop.token')).toBe(TEST_TOKEN);
    expect(await page.locator('#notice').isHidden()).toBe(true);
    await screenshot(page, '01-empty');
    expect(pageErrors).toEqual([]);
  });

  it('streams the text and reasoning of a run as they come, and Stop cancels it', async () => {
    const page = await openPage({
      scripts: {
        '*': [{ thinking: 'The project has three folders.', text: 'Looking through the project now.', hang: true }],
      },
    });
    await sendMessage(page, 'Summarise the project');
    await page.locator('.entry.user', { hasText: 'Summarise the project' }).waitFor();
    await page.locator('.entry.assistant', { hasText: 'Looking through the project now.' }).waitFor();
    // The run still goes: the model's stream hangs until it is cancelled.
    expect(await page.locator('#stop').isEnabled()).toBe(true);
    expect(await page.locator('#send').isDisabled()).toBe(true);
    expect(await textOf(page, '.reasoning .reasoning-text')).toEqual(['The project has three folders.']);
    expect(await page.locator('#status').textContent()).toBe('Working…');
    await screenshot(page, '02-streaming');

    await page.locator('#stop').click();
    await page.locator('.entry.info', { hasText: 'Stopped.' }).waitFor();
    expect(await page.locator('#status').textContent()).toBe('Idle');
    expect(await page.locator('#stop').isDisabled()).toBe(true);
    expect(server?.handler.runs.runCount).toBe(0);
    await screenshot(page, '03-stopped');
    expect(pageErrors).toEqual([]);
  });

  it('strikes through what a model call wrote before a retry that throws it away', async () => {
    const retry = {
      type: 'retry',
      attempt: 1,
      delayMs: 0,
      error: new AgentloopError('The stream broke.', { code: 'stream_broken' }),
      discardOutput: true,
    } as const;
    const page = await openPage({
      scripts: {
        '*': [
          { text: 'A first try that bre', chunks: [retry, { type: 'text-delta', text: 'A second try.' }] },
          finish('Done.'),
        ],
      },
    });
    await sendMessage(page, 'Try');
    await page.locator('.entry.assistant', { hasText: 'Done.' }).waitFor();
    expect(await textOf(page, '.entry.discarded')).toEqual(['A first try that bre']);
    expect(await textOf(page, '.entry.info')).toEqual([
      'The model call failed (stream_broken); what it wrote above is thrown away and it is tried again.',
    ]);
    expect(await textOf(page, '.entry.assistant:not(.discarded)')).toEqual(['A second try.', 'Done.']);
    await screenshot(page, '12-retried');
    expect(pageErrors).toEqual([]);
  });

  it('gives a message back when another tab runs the session, saying which run is busy', async () => {
    const first = await openPage({
      scripts: { '*': [finish('Ready.'), { text: 'Counting slowly.', hang: true }] },
    });
    await sendMessage(first, 'Get ready');
    await first.locator('#status', { hasText: 'Idle' }).waitFor();
    const sessionId = await stored(first, 'agentloop.session');
    // A second tab opens the same session from the list.
    const second = await (context as BrowserContext).newPage();
    await second.goto(`${listening?.url}/#token=${TEST_TOKEN}`);
    await second.locator('#sessions button', { hasText: 'Get ready' }).click();
    await second.locator('.entry.assistant', { hasText: 'Ready.' }).waitFor();
    await sendMessage(first, 'Count');
    await first.locator('.entry.assistant', { hasText: 'Counting slowly.' }).waitFor();

    await sendMessage(second, 'Stop counting');
    const notice = second.locator('#notice');
    await notice.waitFor();
    expect(await notice.textContent()).toBe(
      `This session is busy with run ${runIdOf(sessionId ?? '')} in another tab or window: wait for it to end, or stop it.`,
    );
    expect(await second.locator('#input').inputValue()).toBe('Stop counting');
    // The busy run's own message shows where it runs, and the one given back is not sent.
    expect(await textOf(second, '.entry.user')).toEqual(['Get ready', 'Count']);
    await screenshot(second, '14-busy');

    // The second tab follows the busy run, and its Stop stops it.
    await second.locator('#stop').click();
    await first.locator('.entry.info', { hasText: 'Stopped.' }).waitFor();
    await second.locator('#send:not([disabled])').waitFor();
    expect(await second.locator('#stop').isDisabled()).toBe(true);
  });

  it('says so when the connection ends before the run does', async () => {
    const page = await openPage({ scripts: { '*': [{ text: 'Working on it.', hang: true }] } });
    await sendMessage(page, 'Go');
    await page.locator('.entry.assistant', { hasText: 'Working on it.' }).waitFor();
    // The server goes away with the run's stream open.
    await listening?.close();
    listening = undefined;
    const error = page.locator('.entry.error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(
      /^The run failed: .+\. Reload the page to see where the session got to\.$/,
    );
    expect(await page.locator('#status').textContent()).toBe('Idle');
    expect(await page.locator('#send').isEnabled()).toBe(true);
    await screenshot(page, '13-connection-lost');
  });

  it('makes its ids without crypto.randomUUID, which a page on a LAN address over http lacks', async () => {
    const page = await openPage({ scripts: { '*': [finish('Done.')] } }, '');
    await page.addInitScript('delete Crypto.prototype.randomUUID');
    // Only the fragment changes, so the page loads again from reload() alone, with the script first.
    await page.goto(`${listening?.url}/#token=${TEST_TOKEN}`);
    await page.reload();
    expect(await page.evaluate<string>('typeof crypto.randomUUID')).toBe('undefined');
    await sendMessage(page, 'Go');
    await page.locator('.entry.assistant', { hasText: 'Done.' }).waitFor();
    expect(await stored(page, 'agentloop.session')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keeps Shift+Enter as a new line in the message, and sends on Enter', async () => {
    const page = await openPage({ scripts: { '*': [finish('Noted.')] } });
    await page.locator('#input').type('first line');
    await page.locator('#input').press('Shift+Enter');
    await page.locator('#input').type('second line');
    expect(await page.locator('#input').inputValue()).toBe('first line\nsecond line');
    await page.locator('#input').press('Enter');
    await page.locator('.entry.assistant', { hasText: 'Noted.' }).waitFor();
    expect(await textOf(page, '.entry.user')).toEqual(['first line\nsecond line']);
    expect(await page.locator('#input').inputValue()).toBe('');
  });

  it('shows a tool call as a compact card with its arguments and result, then the result of the task', async () => {
    const page = await openPage({
      scripts: {
        '*': [
          { text: 'Reading the notes.', toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
          finish('The notes say to buy milk.'),
        ],
      },
    });
    await sendMessage(page, 'What do the notes say?');
    await page.locator('.entry.assistant', { hasText: 'The notes say to buy milk.' }).waitFor();
    const card = page.locator('details.tool');
    expect(await card.count()).toBe(1);
    expect(await card.locator('summary').textContent()).toBe('read_filedone');
    // Folded until opened, from the keyboard as well.
    expect(await card.getAttribute('open')).toBeNull();
    await card.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await card.locator('pre').allTextContents()).toEqual([
      '{\n  "path": "notes.txt"\n}',
      'contents of notes.txt',
    ]);
    expect(await textOf(page, '.entry.assistant')).toEqual(['Reading the notes.', 'The notes say to buy milk.']);
    await screenshot(page, '04-tool-call');
    expect(pageErrors).toEqual([]);
  });

  it('shows the diff of an edit for approval, and Allow once (Enter on the focused button) runs it', async () => {
    const page = await openPage({ scripts: { '*': [EDIT, finish('The port is 4680 now.')] } });
    await sendMessage(page, 'Use port 4680');
    const approval = page.locator('.approval');
    await approval.waitFor();
    expect(await approval.locator('h3').textContent()).toBe('Edit src/app.ts');
    expect(await textOf(page, '.diff .removed')).toEqual(['-const port = 80;']);
    expect(await textOf(page, '.diff .added')).toEqual(['+const port = 4680;']);
    expect(await approval.locator('button').allTextContents()).toEqual(['Allow once', 'Allow for the session', 'Deny']);
    expect(await page.locator('details.tool summary').textContent()).toBe('edit_filewaiting for approval…');
    expect(await approval.locator('.expires').textContent()).toMatch(
      /^Denied at \d\d:\d\d( [AP]M)? unless answered\.$/,
    );
    // The first choice has the focus, so the keyboard answers at once; Tab reaches the others, each with a
    // visible focus ring.
    const focused = () =>
      page.evaluate<string | null>(
        'document.activeElement?.textContent || document.activeElement?.getAttribute("aria-label")',
      );
    const ring = () => page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');
    expect(await focused()).toBe('Allow once');
    await page.keyboard.press('Tab');
    expect([await focused(), await ring()]).toEqual(['Allow for the session', 'solid']);
    await page.keyboard.press('Tab');
    expect([await focused(), await ring()]).toEqual(['Deny', 'solid']);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Reason for denying');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect([await focused(), await ring()]).toEqual(['Allow once', 'solid']);
    await screenshot(page, '05-approval');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, '05-approval-dark');

    await page.keyboard.press('Enter');
    await page.locator('.entry.assistant', { hasText: 'The port is 4680 now.' }).waitFor();
    expect(await approval.locator('.answered').textContent()).toBe('Allowed once');
    expect(server?.written).toEqual(['src/app.ts: const port = 4680;']);
    await screenshot(page, '06-approved');
    expect(pageErrors).toEqual([]);
  });

  it('denies an edit with the reason given, which the model is told', async () => {
    const page = await openPage({ scripts: { '*': [EDIT, finish('I left the port alone.')] } });
    await sendMessage(page, 'Use port 4680');
    await page.locator('.approval').waitFor();
    await page.locator('.approval input').fill('Port 80 is what the proxy expects.');
    await page.locator('.approval button', { hasText: 'Deny' }).click();
    await page.locator('.entry.assistant', { hasText: 'I left the port alone.' }).waitFor();
    expect(await page.locator('.approval .answered').textContent()).toBe('Denied');
    expect(server?.written).toEqual([]);
    const sessionId = await stored(page, 'agentloop.session');
    const result = JSON.stringify(server?.providers.get(sessionId ?? '')?.lastMessage());
    expect(result).toContain('Port 80 is what the proxy expects.');
  });

  it("offers a question's suggestions as buttons, and one answers it as the next message", async () => {
    const page = await openPage({
      scripts: {
        '*': [
          {
            toolCalls: [
              { name: 'ask_question', arguments: { question: 'Which port?', suggestions: ['4680', '8080'] } },
            ],
          },
          finish('Port 8080 it is.'),
        ],
      },
    });
    await sendMessage(page, 'Change the port');
    await page.locator('.question button', { hasText: '8080' }).waitFor();
    expect(await textOf(page, '.entry.assistant')).toEqual(['Which port?']);
    expect(await page.locator('.question button').allTextContents()).toEqual(['4680', '8080']);
    expect(await page.locator('.question h3').textContent()).toBe('Answer with a suggestion, or type your own');
    await screenshot(page, '07-question');

    await page.locator('.question button', { hasText: '8080' }).click();
    await page.locator('.entry.assistant', { hasText: 'Port 8080 it is.' }).waitFor();
    expect(await textOf(page, '.entry.user')).toEqual(['Change the port', '8080']);
    const sessionId = await stored(page, 'agentloop.session');
    expect(server?.providers.get(sessionId ?? '')?.lastMessage()).toEqual({
      role: 'user',
      content: [{ type: 'text', text: '8080' }],
    });
    await screenshot(page, '08-question-answered');
    expect(pageErrors).toEqual([]);
  });

  it('shows the session again after a reload, and lists it to resume', async () => {
    const page = await openPage({
      scripts: {
        '*': [
          { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
          finish('The notes say to buy milk.'),
          finish('Still milk.'),
        ],
      },
    });
    await sendMessage(page, 'What do the notes say?');
    await page.locator('.entry.assistant', { hasText: 'The notes say to buy milk.' }).waitFor();
    // The run has ended (and its turn is saved) once the page is idle again.
    await page.locator('#status', { hasText: 'Idle' }).waitFor();
    await page.reload();
    await page.locator('.entry.assistant', { hasText: 'The notes say to buy milk.' }).waitFor();
    expect(await textOf(page, '.entry.user')).toEqual(['What do the notes say?']);
    expect(await page.locator('details.tool summary').textContent()).toBe('read_filedone');
    const listed = page.locator('#sessions button[aria-current="true"]');
    await listed.waitFor();
    expect(await listed.textContent()).toContain('What do the notes say?');
    await screenshot(page, '09-reloaded');

    // The next message goes on with the same session.
    await sendMessage(page, 'And now?');
    await page.locator('.entry.assistant', { hasText: 'Still milk.' }).waitFor();
    expect(await page.locator('#sessions button').count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it('shows an approval still waiting after a reload, and follows the run once it is answered', async () => {
    const page = await openPage({
      onDisconnect: 'continue',
      scripts: { '*': [EDIT, finish('The port is 4680 now.')] },
    });
    await sendMessage(page, 'Use port 4680');
    await page.locator('.approval').waitFor();
    await page.reload();
    const approval = page.locator('.approval');
    await approval.waitFor();
    // The session lists the call's arguments; the page draws the same diff from them.
    expect(await textOf(page, '.diff .added')).toEqual(['+const port = 4680;']);
    expect(await page.locator('#stop').isEnabled()).toBe(true);
    await screenshot(page, '10-approval-after-reload');
    await approval.locator('button', { hasText: 'Allow once' }).click();
    await page.locator('.entry.assistant', { hasText: 'The port is 4680 now.' }).waitFor();
    expect(server?.written).toEqual(['src/app.ts: const port = 4680;']);
    expect(await page.locator('#stop').isDisabled()).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('shows the message of the turn still running after a reload, and lists its session titled from it', async () => {
    const page = await openPage({
      onDisconnect: 'continue',
      scripts: { '*': [EDIT, finish('The port is 4680 now.')] },
    });
    await sendMessage(page, 'Use port 4680');
    await page.locator('.approval').waitFor();
    // Listed while it runs, before its first turn is saved.
    await page.locator('#sessions button', { hasText: 'Use port 4680' }).waitFor();
    await page.reload();
    await page.locator('.approval').waitFor();
    expect(await textOf(page, '.entry.user')).toEqual(['Use port 4680']);
    const listed = page.locator('#sessions button[aria-current="true"]');
    await listed.waitFor();
    expect(await listed.textContent()).toContain('Use port 4680');
    expect(await listed.textContent()).not.toContain('Untitled');
    await page.locator('.approval button', { hasText: 'Allow once' }).click();
    await page.locator('.entry.assistant', { hasText: 'The port is 4680 now.' }).waitFor();
    // Once saved, the message shows once: from the session, no longer from the run.
    expect(await textOf(page, '.entry.user')).toEqual(['Use port 4680']);
    expect(pageErrors).toEqual([]);
  });

  const BOOK = (args: Record<string, unknown> = {}): ScriptStep => ({
    toolCalls: [{ id: 'c1', name: 'book_table', arguments: args }],
  });
  const bookedResult = (sessionId: string | null) =>
    server?.providers
      .get(sessionId ?? '')
      ?.requests[1]?.messages.flatMap((message) => (message.role === 'tool' ? message.content : []))
      .flatMap((part) => (part.type === 'tool-result' ? [part.content] : []));

  it('shows a server’s form with its fields, checks it, and Submit sends the answer', async () => {
    const page = await openPage({ scripts: { '*': [BOOK(), finish('Table booked.')] }, tools: () => [bookTableTool] });
    await sendMessage(page, 'Book a table');
    const card = page.locator('.elicitation');
    await card.waitFor();
    expect(await card.locator('h3').textContent()).toBe('bookings asks for your input');
    expect(await card.locator('.message').textContent()).toBe('Which table?');
    expect(await card.locator('.field > label, .field > legend, .field .check').allTextContents()).toEqual([
      'Your name *',
      'Guests',
      'Seating',
      ' High chair',
      'Extras',
      ' cake',
      ' flowers',
      ' candles',
    ]);
    expect(await card.locator('.field .help').allTextContents()).toEqual(['As on the booking.']);
    const name = card.getByLabel('Your name');
    expect(await name.getAttribute('required')).toBe('');
    expect([await name.getAttribute('minlength'), await name.getAttribute('maxlength')]).toEqual(['2', '40']);
    const guests = card.getByLabel('Guests');
    expect([await guests.inputValue(), await guests.getAttribute('min'), await guests.getAttribute('max')]).toEqual([
      '2',
      '1',
      '12',
    ]);
    expect(await card.getByLabel('Seating').inputValue()).toBe('inside');
    expect(await card.locator('button').allTextContents()).toEqual(['Submit', 'Decline', 'Cancel']);
    expect(await page.locator('details.tool summary').textContent()).toBe('book_tablewaiting for your input…');
    expect(await card.locator('.expires').textContent()).toMatch(/^Cancelled at \d\d:\d\d( [AP]M)? unless answered\.$/);
    // The first field has the focus; the browser refuses a name shorter than the schema's minLength.
    expect(await page.evaluate<string | null>('document.activeElement?.id')).toBe(await name.getAttribute('id'));
    await name.fill('A');
    await name.press('Enter');
    expect(await page.evaluate<boolean>('document.querySelector(".elicitation input").validity.tooShort')).toBe(true);
    expect(server?.handler.runs.snapshot((await stored(page, 'agentloop.session')) ?? '')?.elicitations).toHaveLength(
      1,
    );

    await name.fill('Ada Lovelace');
    await guests.fill('4');
    await card.getByLabel('Seating').selectOption('terrace');
    await card.getByLabel('High chair').check();
    await card.getByLabel('cake').check();
    await card.getByLabel('candles').check();
    await screenshot(page, '14-elicitation-form');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, '14-elicitation-form-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await name.press('Enter');
    await page.locator('.entry.assistant', { hasText: 'Table booked.' }).waitFor();
    expect(await card.locator('.answered').textContent()).toBe('Sent.');
    expect(await card.locator('button').count()).toBe(0);
    const sent = {
      action: 'accept',
      content: { name: 'Ada Lovelace', guests: 4, seating: 'terrace', highChair: true, extras: ['cake', 'candles'] },
    };
    expect(await page.locator('details.tool pre[aria-label="Result"]').textContent()).toBe(JSON.stringify(sent));
    expect(bookedResult(await stored(page, 'agentloop.session'))).toEqual([JSON.stringify(sent)]);
    await screenshot(page, '15-elicitation-sent');
    expect(pageErrors).toEqual([]);
  });

  it('shows a page to open as a link with its host, never opened by itself, and Decline declines', async () => {
    const message = 'Sign in <img src="x" onerror="window.hacked = 1"> <b>first</b>.';
    const page = await openPage({
      scripts: { '*': [BOOK({ mode: 'url', message }), finish('No booking then.')] },
      tools: () => [bookTableTool],
    });
    await sendMessage(page, 'Book a table');
    const card = page.locator('.elicitation');
    await card.waitFor();
    // The server's text is text: no element is made of it.
    expect(await card.locator('.message').textContent()).toBe(message);
    expect(await card.locator('img, b').count()).toBe(0);
    expect(await card.locator('.host').textContent()).toBe('Opens a page on bookings.example.com');
    const link = card.locator('a');
    expect(await link.textContent()).toBe('https://bookings.example.com/sign-in?session=1');
    expect([await link.getAttribute('target'), await link.getAttribute('rel')]).toEqual([
      '_blank',
      'noopener noreferrer',
    ]);
    expect(await card.locator('button').allTextContents()).toEqual(['Done', 'Decline', 'Cancel']);
    expect(context?.pages()).toHaveLength(1);
    await screenshot(page, '16-elicitation-url');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, '16-elicitation-url-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await card.getByRole('button', { name: 'Decline' }).click();
    await page.locator('.entry.assistant', { hasText: 'No booking then.' }).waitFor();
    expect(await card.locator('.answered').textContent()).toBe('Declined.');
    expect(bookedResult(await stored(page, 'agentloop.session'))).toEqual(['{"action":"decline"}']);
    expect(await page.evaluate<unknown>('window.hacked')).toBeUndefined();
    expect(context?.pages()).toHaveLength(1);
    expect(pageErrors).toEqual([]);
  });

  it('cancels the request, not the run, with Escape in the form', async () => {
    const page = await openPage({ scripts: { '*': [BOOK(), finish('No table then.')] }, tools: () => [bookTableTool] });
    await sendMessage(page, 'Book a table');
    const card = page.locator('.elicitation');
    await card.waitFor();
    await card.getByLabel('Your name').press('Escape');
    await page.locator('.entry.assistant', { hasText: 'No table then.' }).waitFor();
    expect(await card.locator('.answered').textContent()).toBe('Cancelled.');
    expect(await page.locator('.entry.info', { hasText: 'Stopped.' }).count()).toBe(0);
    expect(bookedResult(await stored(page, 'agentloop.session'))).toEqual(['{"action":"cancel"}']);
    expect(pageErrors).toEqual([]);
  });

  it('sets a tool card back to running once its approval or form is answered, until its result', async () => {
    const deployed = gate();
    const booked = gate();
    const deploy = deployTool(deployed.opened);
    const book = defineTool({
      name: 'book_slowly',
      description: 'Books a table, then waits for the restaurant.',
      parameters: z.object({}),
      annotations: { readOnly: true, openWorld: false },
      execute: async (_args, context) => {
        const answer = await context.elicit?.({
          mode: 'form',
          server: 'bookings',
          message: 'Which table?',
          schema: { type: 'object', properties: { name: { type: 'string', title: 'Your name' } } },
        });
        await booked.opened;
        return JSON.stringify(answer);
      },
    });
    const page = await openPage({
      scripts: {
        '*': [
          { toolCalls: [{ id: 'c1', name: 'deploy', arguments: {} }] },
          { toolCalls: [{ id: 'c2', name: 'book_slowly', arguments: {} }] },
          finish('Deployed and booked.'),
        ],
      },
      tools: () => [deploy, book],
    });
    await sendMessage(page, 'Deploy, then book a table');
    const badges = page.locator('details.tool .state');
    await page.locator('.approval').waitFor();
    expect(await badges.allTextContents()).toEqual(['waiting for approval…']);
    await page.locator('.approval button', { hasText: 'Allow once' }).click();
    await page.locator('.approval .answered').waitFor();
    expect(await badges.allTextContents()).toEqual(['running…']);

    deployed.open();
    const card = page.locator('.elicitation');
    await card.waitFor();
    expect(await badges.allTextContents()).toEqual(['done', 'waiting for your input…']);
    await card.getByLabel('Your name').fill('Ada');
    await card.getByRole('button', { name: 'Submit' }).click();
    // Set by the stream's elicitation-resolved, which may come before or after the answer's response.
    await badges.nth(1).filter({ hasText: 'running…' }).waitFor();
    expect(await badges.allTextContents()).toEqual(['done', 'running…']);
    await screenshot(page, '18-running-after-answer');

    booked.open();
    await page.locator('.entry.assistant', { hasText: 'Deployed and booked.' }).waitFor();
    expect(await badges.allTextContents()).toEqual(['done', 'done']);
    expect(pageErrors).toEqual([]);
  });

  it('sets a tool card back to running when its approval is answered elsewhere (another tab)', async () => {
    const deployed = gate();
    const page = await openPage({
      scripts: { '*': [{ toolCalls: [{ id: 'c1', name: 'deploy', arguments: {} }] }, finish('Deployed.')] },
      tools: () => [deployTool(deployed.opened)],
    });
    await sendMessage(page, 'Deploy');
    const badge = page.locator('details.tool .state');
    await page.locator('.approval').waitFor();
    expect(await badge.textContent()).toBe('waiting for approval…');
    const sessionId = (await stored(page, 'agentloop.session')) ?? '';
    const [approval] = server?.handler.runs.snapshot(sessionId)?.approvals ?? [];
    const answer = await server?.request(
      `/api/sessions/${encodeURIComponent(sessionId)}/approvals/${encodeURIComponent(approval?.requestId ?? '')}`,
      { method: 'POST', json: { decision: 'allow-once' } },
    );
    expect(answer?.status).toBe(200);
    // Set by the stream's approval-resolved: this page gave no answer.
    await badge.filter({ hasText: 'running…' }).waitFor({ timeout: 10_000 });
    deployed.open();
    await page.locator('.entry.assistant', { hasText: 'Deployed.' }).waitFor();
    expect(await badge.textContent()).toBe('done');
    expect(pageErrors).toEqual([]);
  });

  it('closes an approval panel answered elsewhere (another tab), leaving no buttons to press', async () => {
    const deployed = gate();
    const page = await openPage({
      scripts: { '*': [{ toolCalls: [{ id: 'c1', name: 'deploy', arguments: {} }] }, finish('Deployed.')] },
      tools: () => [deployTool(deployed.opened)],
    });
    await sendMessage(page, 'Deploy');
    const approval = page.locator('.approval');
    await approval.waitFor();
    expect(await approval.locator('button').count()).toBe(3);
    const sessionId = (await stored(page, 'agentloop.session')) ?? '';
    const [pending] = server?.handler.runs.snapshot(sessionId)?.approvals ?? [];
    const answer = await server?.request(
      `/api/sessions/${encodeURIComponent(sessionId)}/approvals/${encodeURIComponent(pending?.requestId ?? '')}`,
      { method: 'POST', json: { decision: 'allow-session' } },
    );
    expect(answer?.status).toBe(200);
    // Closed by the stream's approval-resolved, while the tool still runs: this page gave no answer.
    const answered = approval.locator('.answered');
    await answered.waitFor({ timeout: 10_000 });
    expect(await answered.textContent()).toBe('Allowed for the session: answered elsewhere.');
    expect(await approval.locator('button, input').count()).toBe(0);
    deployed.open();
    await page.locator('.entry.assistant', { hasText: 'Deployed.' }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('shows a form still waiting after a reload, and follows the run once it is sent', async () => {
    const page = await openPage({
      onDisconnect: 'continue',
      scripts: { '*': [BOOK(), finish('Table booked.')] },
      tools: () => [bookTableTool],
    });
    await sendMessage(page, 'Book a table');
    await page.locator('.elicitation').waitFor();
    await page.reload();
    const card = page.locator('.elicitation');
    await card.waitFor();
    expect(await card.locator('h3').textContent()).toBe('bookings asks for your input');
    expect(await card.getByLabel('Guests').inputValue()).toBe('2');
    expect(await page.locator('#stop').isEnabled()).toBe(true);
    await screenshot(page, '17-elicitation-after-reload');
    await card.getByLabel('Your name').fill('Grace');
    await card.getByRole('button', { name: 'Submit' }).click();
    await page.locator('.entry.assistant', { hasText: 'Table booked.' }).waitFor();
    const [result] = bookedResult(await stored(page, 'agentloop.session')) ?? [];
    expect(JSON.parse(result ?? '')).toEqual({
      action: 'accept',
      content: { name: 'Grace', guests: 2, seating: 'inside', highChair: false },
    });
    expect(pageErrors).toEqual([]);
  });

  it('says what to do when the token is wrong', async () => {
    const page = await openPage({ scripts: { '*': [] } }, '#token=not-the-right-token-at-all');
    const notice = page.locator('#notice');
    await notice.waitFor();
    expect(await notice.textContent()).toBe(
      'The bearer token is wrong: use the token the server printed when it started. Open the address agentloop serve printed, with its #token=… part.',
    );
    await screenshot(page, '11-wrong-token');
    // The browser logs the refused request itself; the page threw nothing.
    expect(pageErrors.filter((error) => !error.includes('401'))).toEqual([]);
  });

  it('says where the token comes from when the address has none', async () => {
    const page = await openPage({ scripts: { '*': [] } }, '');
    const notice = page.locator('#notice');
    await notice.waitFor();
    expect(await notice.textContent()).toBe(
      'This page needs its access token: open the address agentloop serve printed (it ends with #token=…).',
    );
    expect(pageErrors.filter((error) => !error.includes('401'))).toEqual([]);
  });

  it("works without a token where the app's own authenticate signs people in with a cookie", async () => {
    const page = await openPage(
      {
        scripts: { '*': [finish('Hello, Ada.')] },
        authenticate: (request) => (request.headers.get('cookie')?.includes('user=ada') ? { id: 'ada' } : undefined),
      },
      '',
      { name: 'user', value: 'ada' },
    );
    await sendMessage(page, 'Hello');
    await page.locator('.entry.assistant', { hasText: 'Hello, Ada.' }).waitFor();
    expect(await page.locator('#notice').isHidden()).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
