export type { GoogleClientOptions } from './create-google-client.js';
export type { GoogleProviderOptions } from './google-provider.js';
export { DEFAULT_GOOGLE_IDLE_TIMEOUT_MS, GoogleProvider } from './google-provider.js';
