import type { McpServers } from '@agentloop/mcp';
import { describe, expect, it } from 'vitest';
import { findResourceMentions, ResourceMentions } from './resource-mentions.js';

/** Servers whose one resource's text is `version N`, and whose subscribers are called by `change()`. */
function fakeServers() {
  let version = 1;
  const listeners = new Set<(uri: string) => void>();
  const calls: string[] = [];
  const servers = {
    status: () => [{ name: 'docs' }],
    readResource: async (_server: string, uri: string) => [{ uri, text: `version ${version}` }],
    subscribeResource: async (_server: string, uri: string, listener: (uri: string) => void) => {
      calls.push(`subscribe ${uri}`);
      listeners.add(listener);
      return {
        subscribed: true,
        unsubscribe: async () => {
          calls.push(`unsubscribe ${uri}`);
          listeners.delete(listener);
        },
      };
    },
  } as unknown as McpServers;
  return {
    servers,
    calls,
    change: () => {
      version += 1;
      for (const listener of listeners) listener('docs://guide');
    },
  };
}

describe('findResourceMentions', () => {
  it('finds @server:uri for the servers there are, without the sentence’s punctuation, once each', () => {
    expect(
      findResourceMentions('See @docs:docs://guide, then @docs:docs://guide and mail@docs:x or @team:later.', ['docs']),
    ).toEqual([{ server: 'docs', uri: 'docs://guide' }]);
  });
});

describe('ResourceMentions', () => {
  it('sends a resource that changed since it was attached with the next message, once', async () => {
    const fake = fakeServers();
    const mentions = new ResourceMentions(() => fake.servers);
    const first = await mentions.expand('Read @docs:docs://guide');
    expect(first).toEqual({
      ok: true,
      input:
        'Read @docs:docs://guide\n\nAttached resources:\n<resource server="docs" uri="docs://guide">\nversion 1\n</resource>',
      attached: [{ server: 'docs', uri: 'docs://guide' }],
      refreshed: [],
    });
    await Promise.resolve();
    expect(fake.calls).toEqual(['subscribe docs://guide']);

    expect(await mentions.expand('And now?')).toMatchObject({ input: 'And now?' });
    fake.change();
    expect(await mentions.expand('And now?')).toMatchObject({
      input:
        'And now?\n\nResources attached earlier changed since; their content now:\n<resource server="docs" uri="docs://guide" changed="true">\nversion 2\n</resource>',
      refreshed: [{ server: 'docs', uri: 'docs://guide' }],
    });
    expect(await mentions.expand('Again')).toMatchObject({ input: 'Again' });
  });

  it('stops following what was attached when forgotten', async () => {
    const fake = fakeServers();
    const mentions = new ResourceMentions(() => fake.servers);
    await mentions.expand('Read @docs:docs://guide');
    await mentions.forget();
    fake.change();
    expect(fake.calls).toEqual(['subscribe docs://guide', 'unsubscribe docs://guide']);
    expect(await mentions.expand('And now?')).toMatchObject({ input: 'And now?' });
  });
});
