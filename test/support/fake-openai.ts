import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';

export interface FakeChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  stream?: boolean;
  response_format?: { type: string };
}

/** What the fake model does for one request. */
export type FakeBehaviour =
  | { reply: string; delayMs?: number; pieceDelayMs?: number } // pieceDelayMs: a pause between streamed pieces
  | { garbage: string } // a non-JSON body with status 200
  | { status: number } // an HTTP error
  | { hang: true }; // never answers (timeout tests)

export interface FakeOpenAi {
  baseUrl: string;
  requests: FakeChatRequest[];
  setBehaviour(fn: (req: FakeChatRequest) => FakeBehaviour): void;
  close(): Promise<void>;
}

/**
 * A local OpenAI-compatible server (`POST /v1/chat/completions`, streaming or not) for tests of
 * everything that may call a model: it can answer, invent, hang, fail or return garbage.
 */
export async function startFakeOpenAi(initial: (req: FakeChatRequest) => FakeBehaviour): Promise<FakeOpenAi> {
  let behaviour = initial;
  const requests: FakeChatRequest[] = [];
  const open = new Set<ServerResponse>();

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(body) as FakeChatRequest;
      requests.push(parsed);
      const b = behaviour(parsed);
      if ('hang' in b) {
        open.add(res);
        return;
      }
      if ('status' in b) {
        res.writeHead(b.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'fake failure' } }));
        return;
      }
      if ('garbage' in b) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(b.garbage);
        return;
      }
      const send = () => {
        if (parsed.stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          const pieces = b.reply.match(/.{1,12}/gs) ?? [];
          const write = (piece: string) =>
            res.write(
              `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: parsed.model, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`,
            );
          if (!b.pieceDelayMs) {
            for (const piece of pieces) write(piece);
            res.end('data: [DONE]\n\n');
            return;
          }
          // Pieces spaced in time, the way a model writes (the chat page shows them as they come).
          let i = 0;
          const next = () => {
            if (res.destroyed) return;
            if (i < pieces.length) {
              write(pieces[i++]);
              setTimeout(next, b.pieceDelayMs);
            } else res.end('data: [DONE]\n\n');
          };
          next();
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              id: 'chatcmpl-fake',
              object: 'chat.completion',
              created: 0,
              model: parsed.model,
              choices: [{ index: 0, message: { role: 'assistant', content: b.reply }, finish_reason: 'stop' }],
              usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
            }),
          );
        }
      };
      if (b.delayMs) setTimeout(send, b.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setBehaviour: (fn) => (behaviour = fn),
    close: async () => {
      for (const r of open) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
