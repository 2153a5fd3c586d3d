import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { JsonlSessionStore } from '@agentloop/sessions';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentHandler } from '../handler/create-agent-handler.js';
import { PAGE_SCRIPT, PAGE_STYLE } from './page-assets.generated.js';
import { PAGE_CONTENT_SECURITY_POLICY } from './page-routes.js';

let directory: string | undefined;

afterEach(() => {
  if (directory) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

function handler(basePath?: string) {
  directory = mkdtempSync(join(tmpdir(), 'agentloop-page-'));
  const sessions = new JsonlSessionStore({ directory });
  return createAgentHandler({
    sessions,
    createAgent: ({ sessionId }) =>
      new DefaultAgent(new ScriptedProvider([]), { session: { store: sessions, id: sessionId } }),
    ...(basePath === undefined ? {} : { basePath }),
  });
}

/** The URLs of the page's script and style sheet, as its HTML names them. */
function assetUrls(html: string): { script: string; style: string } {
  const script = /<script type="module" src="([^"]+)"><\/script>/.exec(html)?.[1];
  const style = /<link rel="stylesheet" href="([^"]+)">/.exec(html)?.[1];
  if (!script || !style) throw new Error(`the HTML names no script or style sheet:\n${html}`);
  return { script, style };
}

describe('the web page', () => {
  it('is served at / without a token, under a strict Content-Security-Policy, never cached stale', async () => {
    const response = await handler().fetch(new Request('http://127.0.0.1/'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(PAGE_CONTENT_SECURITY_POLICY);
    expect(PAGE_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(PAGE_CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const html = await response.text();
    expect(html).toContain('<meta name="agentloop-base" content="">');
    expect(assetUrls(html)).toEqual({
      script: `/assets/page.${PAGE_SCRIPT.hash}.js`,
      style: `/assets/page.${PAGE_STYLE.hash}.css`,
    });
    // Nothing inline for the policy to allow, and nothing from another origin.
    expect(html).not.toMatch(/<script>|<style>|style="|https?:\/\//);
  });

  it('serves its script and style sheet under their content hash, kept for a year', async () => {
    const app = handler();
    const html = await (await app.fetch(new Request('http://127.0.0.1/'))).text();
    const { script, style } = assetUrls(html);
    const scriptResponse = await app.fetch(new Request(`http://127.0.0.1${script}`));
    expect(scriptResponse.status).toBe(200);
    expect(scriptResponse.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(scriptResponse.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(scriptResponse.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await scriptResponse.text()).toBe(PAGE_SCRIPT.body);
    const styleResponse = await app.fetch(new Request(`http://127.0.0.1${style}`));
    expect(styleResponse.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await styleResponse.text()).toBe(PAGE_STYLE.body);
  });

  it('answers an asset of another version with a 404, so a stale URL is never served new content', async () => {
    const response = await handler().fetch(new Request('http://127.0.0.1/assets/page.0000000000000000.js'));
    expect(response.status).toBe(404);
  });

  it('names its assets and its API under the base path', async () => {
    const app = handler('/agent');
    const response = await app.fetch(new Request('http://127.0.0.1/agent'));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<meta name="agentloop-base" content="/agent">');
    const { script } = assetUrls(html);
    expect(script).toBe(`/agent/assets/page.${PAGE_SCRIPT.hash}.js`);
    expect((await app.fetch(new Request(`http://127.0.0.1${script}`))).status).toBe(200);
    expect((await app.fetch(new Request('http://127.0.0.1/'))).status).toBe(404);
  });

  it('is served under the base path with a trailing slash too, naming the same assets', async () => {
    const app = handler('/agent');
    const bare = await (await app.fetch(new Request('http://127.0.0.1/agent'))).text();
    const slashed = await app.fetch(new Request('http://127.0.0.1/agent/'));
    expect(slashed.status).toBe(200);
    expect(slashed.headers.get('content-security-policy')).toBe(PAGE_CONTENT_SECURITY_POLICY);
    const html = await slashed.text();
    expect(html).toBe(bare);
    expect(assetUrls(html).style).toBe(`/agent/assets/page.${PAGE_STYLE.hash}.css`);
    expect((await app.fetch(new Request('http://127.0.0.1/agent/api/sessions/'))).status).toBe(401);
  });
});
