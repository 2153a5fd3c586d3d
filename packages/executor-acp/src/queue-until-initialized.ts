import type { Stream } from '@agentclientprotocol/sdk';

/** A JSON-RPC message as the stream carries it. */
type Message = Stream extends { readable: ReadableStream<infer Item> } ? Item : never;

/**
 * The stream with what the editor sends right behind an `initialize` request held back until that
 * request is answered. Editors pipeline (`initialize`, then `session/new` before the first answer), and
 * the SDK refuses any request that arrives before `initialize` is answered with -32600 "must be
 * initialized"; held back, the request reaches the SDK after the answer went out, as if the editor had
 * waited for it. Nothing is reordered: a message that arrives while others are held waits behind them.
 */
export function queueUntilInitialized(stream: Stream): Stream {
  let pendingId: unknown;
  let pending = false;
  let held: Message[] = [];
  let incoming: TransformStreamDefaultController<Message> | undefined;
  const release = () => {
    pending = false;
    const messages = held;
    held = [];
    for (const message of messages) {
      if (pending) held.push(message);
      else forward(message);
    }
  };
  const forward = (message: Message) => {
    incoming?.enqueue(message);
    if (isInitializeRequest(message)) {
      pending = true;
      pendingId = message.id;
    }
  };
  const readable = stream.readable.pipeThrough(
    new TransformStream<Message, Message>({
      start: (controller) => {
        incoming = controller;
      },
      transform: (message) => {
        if (pending) held.push(message);
        else forward(message);
      },
      // The editor is gone: what was held goes on, to be answered (or dropped) as the connection closes.
      flush: () => {
        for (const message of held) incoming?.enqueue(message);
        held = [];
      },
    }),
  );
  const writer = stream.writable.getWriter();
  const writable = new WritableStream<Message>({
    write: async (message) => {
      await writer.write(message);
      if (pending && isResponseTo(message, pendingId)) release();
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
  return { readable, writable };
}

function isInitializeRequest(message: Message): message is Message & { id: unknown } {
  return 'method' in message && message.method === 'initialize' && 'id' in message;
}

function isResponseTo(message: Message, id: unknown): boolean {
  return !('method' in message) && 'id' in message && message.id === id;
}
