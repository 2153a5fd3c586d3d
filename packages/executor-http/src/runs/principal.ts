/**
 * Who a request is from: what `authenticate` returns. Sessions belong to the principal that created them,
 * by `id`; the rest is the app's own, handed to `createAgent` as it is.
 */
export interface Principal {
  /** Stable and unique per user: sessions are kept under it. */
  readonly id: string;
  readonly [key: string]: unknown;
}
