import { afterEach, describe, expect, it } from 'vitest';
import { type LoopbackRedirect, listenForRedirect } from './loopback-redirect.js';

let redirect: LoopbackRedirect | undefined;

afterEach(async () => {
  await redirect?.close();
  redirect = undefined;
});

describe('the loopback redirect', () => {
  it('listens on 127.0.0.1 and takes the code of the redirect whose state matches, not another', async () => {
    redirect = await listenForRedirect();
    expect(redirect.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const code = redirect.code(() => 'the-state');
    const forged = await fetch(`${redirect.redirectUrl}?code=stolen&state=other`);
    expect(forged.status).toBe(400);
    const elsewhere = await fetch(redirect.redirectUrl.replace('/callback', '/favicon.ico'));
    expect(elsewhere.status).toBe(400);
    const real = await fetch(`${redirect.redirectUrl}?code=the-code&state=the-state`);
    expect(real.status).toBe(200);
    expect(await real.text()).toContain('Logged in.');
    expect(await code).toBe('the-code');
  });

  it("rejects with the authorization server's error", async () => {
    redirect = await listenForRedirect();
    const refused = expect(redirect.code(() => 's')).rejects.toThrow(
      'the authorization server refused the login: access_denied (The user said no)',
    );
    const page = await fetch(`${redirect.redirectUrl}?error=access_denied&error_description=The+user+said+no&state=s`);
    expect(page.status).toBe(400);
    await refused;
  });

  it('says which port is taken', async () => {
    redirect = await listenForRedirect();
    const port = Number(new URL(redirect.redirectUrl).port);
    await expect(listenForRedirect(port)).rejects.toThrow(
      `port ${port} of 127.0.0.1 is in use; free it or choose another "redirect_port"`,
    );
  });
});
