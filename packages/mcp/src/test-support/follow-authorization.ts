/**
 * Plays the browser of a login: fetches the authorization URL (the fixture approves at once), and follows
 * its redirect to the loopback, as a person's browser would. Resolves with the loopback's status.
 */
export async function followAuthorization(url: URL): Promise<number> {
  const approval = await fetch(url, { redirect: 'manual' });
  const location = approval.headers.get('location');
  if (!location) throw new Error(`the authorization server answered ${approval.status}: ${await approval.text()}`);
  const landing = await fetch(location);
  await landing.text();
  return landing.status;
}
