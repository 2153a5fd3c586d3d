import { AgentUsageError } from '../errors/index.js';
import type { LLMProvider } from '../provider/index.js';
import { nativeToolProtocol } from './native-protocol.js';
import type { ToolProtocolAdapter } from './tool-protocol.js';

/** The adapter for a protocol option: `auto` is native where the provider supports it, XML otherwise. */
export function resolveToolProtocol(option: 'auto' | 'native' | 'xml', provider: LLMProvider): ToolProtocolAdapter {
  const native = option === 'native' || (option === 'auto' && provider.capabilities.nativeTools);
  if (native) return nativeToolProtocol;
  throw new AgentUsageError('The XML tool protocol is not available yet.', 'protocol_unavailable');
}
