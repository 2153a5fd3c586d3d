/**
 * tsyringe, loaded when the first container is made. It and the Reflect metadata polyfill it needs are
 * about 40 modules, which every process importing core paid for at start-up while only apps that use a
 * container need them; `createContainer` is async, so it can wait for them here.
 * The polyfill is loaded first: tsyringe refuses to load without `Reflect.getMetadata`.
 */
let loading: Promise<typeof import('tsyringe')> | undefined;

export function loadTsyringe(): Promise<typeof import('tsyringe')> {
  if (!loading) {
    loading = import('./reflect-polyfill.js').then(() => import('tsyringe'));
    // A failed load (a broken install) is tried again by the next container, not remembered.
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}
