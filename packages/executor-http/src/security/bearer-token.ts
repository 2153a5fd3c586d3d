import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random bearer token: 32 bytes, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The token of an `Authorization: Bearer <token>` header; undefined when there is none. */
export function bearerToken(header: string | null | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

/** Compares two tokens in a time that says nothing of where they differ. */
export function tokensEqual(given: string, expected: string): boolean {
  // Hashing first gives both the same length, which timingSafeEqual needs, without leaking the length.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
