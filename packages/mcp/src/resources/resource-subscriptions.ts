/** Who listens for updates of which resource URIs on one server. */
export class ResourceSubscriptions {
  readonly #listeners = new Map<string, Set<(uri: string) => void>>();

  /** Adds a listener; `first` is true when no one listened to this URI before (the server must be told). */
  add(uri: string, listener: (uri: string) => void): { first: boolean; remove: () => { last: boolean } } {
    let listeners = this.#listeners.get(uri);
    const first = !listeners;
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(uri, listeners);
    }
    // Each subscription its own entry: the same function subscribed twice is removed once per unsubscribe.
    const entry = (updated: string) => listener(updated);
    listeners.add(entry);
    return {
      first,
      remove: () => {
        const current = this.#listeners.get(uri);
        if (!current?.delete(entry)) return { last: false };
        if (current.size > 0) return { last: false };
        this.#listeners.delete(uri);
        return { last: true };
      },
    };
  }

  /** Tells the listeners of a URI it changed. A listener that throws does not stop the others. */
  notify(uri: string): void {
    for (const listener of [...(this.#listeners.get(uri) ?? [])]) {
      try {
        listener(uri);
      } catch {
        // The listener's own failure; the others still hear of the update.
      }
    }
  }

  /** Every URI someone listens to, to subscribe again after the server is started again. */
  uris(): string[] {
    return [...this.#listeners.keys()];
  }
}
