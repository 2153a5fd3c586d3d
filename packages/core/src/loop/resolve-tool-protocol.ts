import type { LLMProvider } from '@agentloop/spec';
import { nativeToolProtocol } from './native-protocol.js';
import type { ToolProtocolAdapter } from './tool-protocol.js';
import { xmlToolProtocol } from './xml-protocol.js';

/** The adapter for a protocol option: `auto` is native where the provider supports it, XML otherwise. */
export function resolveToolProtocol(option: 'auto' | 'native' | 'xml', provider: LLMProvider): ToolProtocolAdapter {
  const native = option === 'native' || (option === 'auto' && provider.capabilities.nativeTools);
  return native ? nativeToolProtocol : xmlToolProtocol;
}
