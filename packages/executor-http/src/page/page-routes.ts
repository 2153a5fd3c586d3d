import { Hono } from 'hono';
import { PAGE_HTML, PAGE_SCRIPT, PAGE_STYLE } from './page-assets.generated.js';

/**
 * What the page may load and where it may connect: its own script, style sheet and API, nothing inline,
 * nothing from elsewhere, and no framing. Every text the agent sends is set as text, never as HTML, and
 * this policy is the second line behind that: a script that got in could not run, and could not send
 * the token anywhere but this server.
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const COMMON_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  // The token travels in the URL fragment, which browsers never send; no Referer at all is safer still.
  'Referrer-Policy': 'no-referrer',
};

/**
 * The web page's routes: `GET /` (the HTML) and `GET /assets/page.<hash>.js|css`, for mounting at the
 * root of the handler's app. `basePath` is the handler's prefix ('' for none): the page loads its
 * assets and calls the API under it. The assets' URLs carry their content's hash, so a browser keeps
 * them for a year and a new version is a new URL; the HTML is revalidated on every load.
 */
export function pageRoutes(basePath: string): Hono {
  const prefix = basePath === '/' ? '' : basePath;
  const scriptPath = `/assets/page.${PAGE_SCRIPT.hash}.js`;
  const stylePath = `/assets/page.${PAGE_STYLE.hash}.css`;
  const html = PAGE_HTML.replace('%BASE_PATH%', escapeAttribute(prefix))
    .replace('%SCRIPT_URL%', escapeAttribute(`${prefix}${scriptPath}`))
    .replace('%STYLE_URL%', escapeAttribute(`${prefix}${stylePath}`));
  const asset = (body: string, contentType: string) =>
    new Response(body, {
      headers: {
        ...COMMON_HEADERS,
        'Content-Type': contentType,
        'Cache-Control': 'public, max-age=31536000, immutable',
      },
    });

  const routes = new Hono();
  routes.get(
    '/',
    () =>
      new Response(html, {
        headers: {
          ...COMMON_HEADERS,
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': PAGE_CONTENT_SECURITY_POLICY,
          'X-Frame-Options': 'DENY',
          'Cache-Control': 'no-cache',
        },
      }),
  );
  routes.get(scriptPath, () => asset(PAGE_SCRIPT.body, 'text/javascript; charset=utf-8'));
  routes.get(stylePath, () => asset(PAGE_STYLE.body, 'text/css; charset=utf-8'));
  return routes;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
