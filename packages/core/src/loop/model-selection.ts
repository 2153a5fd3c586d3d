import type { LLMProvider } from '@agentloop/spec';
import { resolveToolProtocol } from './resolve-tool-protocol.js';
import type { ToolProtocolAdapter, ToolProtocolOption } from './tool-protocol.js';

/**
 * What the next model call uses: the provider and the tool protocol. The agent owns one for its whole
 * life and each run reads it at every model call, so a switch made while a run goes on (`/model`,
 * `/protocol`) takes effect at the next call, and a switch to XML made by a run holds for the next run,
 * with no state copied back and forth.
 */
export class ModelSelection {
  #provider: LLMProvider;
  #toolProtocol: ToolProtocolOption;
  /** Set when a server rejected native tools under `auto`: the session goes on in XML. */
  #xmlFallback = false;

  constructor(provider: LLMProvider, toolProtocol: ToolProtocolOption) {
    this.#provider = provider;
    this.#toolProtocol = toolProtocol;
  }

  /** The provider of the next model call. */
  get provider(): LLMProvider {
    return this.#provider;
  }

  /** The configured tool protocol. */
  get toolProtocol(): ToolProtocolOption {
    return this.#toolProtocol;
  }

  /** Switches the provider; a fallback to XML made for the old one no longer holds. */
  set provider(provider: LLMProvider) {
    this.#provider = provider;
    this.#xmlFallback = false;
  }

  /** Switches the tool protocol; a fallback to XML no longer holds. */
  set toolProtocol(protocol: ToolProtocolOption) {
    this.#toolProtocol = protocol;
    this.#xmlFallback = false;
  }

  /** The protocol adapter of the next model call. */
  resolveProtocol(): ToolProtocolAdapter {
    return resolveToolProtocol(this.#xmlFallback ? 'xml' : this.#toolProtocol, this.#provider);
  }

  /**
   * Switches the session to XML after `provider`'s server rejected native tools; false where that is not
   * allowed (a protocol set to `native`), or when the provider was switched while its call was going on:
   * the new one has not said it lacks native tools.
   */
  fallBackToXml(provider: LLMProvider): boolean {
    if (this.#toolProtocol !== 'auto' || provider !== this.#provider) return false;
    this.#xmlFallback = true;
    return true;
  }
}
