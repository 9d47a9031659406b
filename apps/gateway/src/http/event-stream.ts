import type { Response } from 'express';

/** A writer of named server-sent events on an open stream. */
export type SendEvent = (event: string, data: unknown) => void;

/** Opens a server-sent events response (status 200, no caching or proxy buffering) and returns its event writer. */
export function openEventStream(res: Response): SendEvent {
  res.status(200);
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-cache, no-transform');
  res.setHeader('x-accel-buffering', 'no');
  res.flushHeaders();
  return (event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}
