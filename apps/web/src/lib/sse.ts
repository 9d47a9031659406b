/**
 * Server-sent events from POST /ask/stream, read from a fetch body: chunks arrive split anywhere,
 * events end at a blank line. Pure and incremental.
 */
export interface SseEvent {
  event: string;
  data: string;
}

export class SseParser {
  private buf = '';

  /** Feeds a decoded chunk; returns the events it completed. */
  push(chunk: string): SseEvent[] {
    this.buf += chunk.replace(/\r\n?/g, '\n');
    const out: SseEvent[] = [];
    let at: number;
    while ((at = this.buf.indexOf('\n\n')) >= 0) {
      const block = this.buf.slice(0, at);
      this.buf = this.buf.slice(at + 2);
      const ev = parseBlock(block);
      if (ev) out.push(ev);
    }
    return out;
  }

  /** The event left without its blank line when the stream closed, if any. */
  end(): SseEvent[] {
    const rest = this.buf;
    this.buf = '';
    const ev = rest.trim() ? parseBlock(rest) : null;
    return ev ? [ev] : [];
  }
}

function parseBlock(block: string): SseEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length ? { event, data: data.join('\n') } : null;
}
