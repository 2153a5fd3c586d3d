#!/usr/bin/env node
// A stand-in for a browser ($BROWSER) in tests: fetches the URL it is given (the authorization server's
// page, which approves at once), follows the redirect to the loopback as a browser would, and exits 0
// when the loopback answered 200.
const approval = await fetch(process.argv[2], { redirect: 'manual' });
const location = approval.headers.get('location');
if (!location) process.exit(2);
const landing = await fetch(location);
process.exit(landing.status === 200 ? 0 : 1);
