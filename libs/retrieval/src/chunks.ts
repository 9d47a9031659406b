import { RagChunk } from '@cota/contracts';

/**
 * Normalises whatever a store returned into the RagChunk the narrator and meta expect:
 * text from `text`/`content`/`body`/`snippet`, score as a number, metadata preserved.
 * Returns null for an item without text (it would only waste context).
 */
export function normalizeChunk(item: Record<string, unknown>): RagChunk | null {
  const rawText = [item.text, item.content, item.body, item.snippet].find((v) => typeof v === 'string' && v.trim() !== '');
  if (typeof rawText !== 'string') return null;
  const score = typeof item.score === 'number' ? item.score : Number(item.score);
  const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
  const docId = str(item.doc_id) ?? 'unknown';
  return {
    text: rawText.trim(),
    score: Number.isFinite(score) ? Math.round(score * 10000) / 10000 : 0,
    doc_id: docId,
    chunk_id: str(item.chunk_id) ?? docId,
    collection: str(item.collection) ?? 'unknown',
    entity: str(item.entity),
    source_id: str(item.source_id),
    tags: Array.isArray(item.tags) ? item.tags.filter((t): t is string => typeof t === 'string') : [],
  };
}

/**
 * Keeps chunks, best first, until `maxChars` of text; the one that overflows is cut at a word
 * boundary when enough room remains, otherwise dropped (half a sentence helps nobody).
 */
export function fitToBudget(chunks: RagChunk[], maxChars: number, minUsefulChars = 160): RagChunk[] {
  const out: RagChunk[] = [];
  let used = 0;
  for (const c of chunks) {
    const room = maxChars - used;
    if (room <= 0) break;
    if (c.text.length <= room) {
      out.push(c);
      used += c.text.length;
      continue;
    }
    if (room >= minUsefulChars) {
      const cut = c.text.slice(0, room - 1).replace(/\s+\S*$/, '');
      out.push({ ...c, text: `${cut}…` });
    }
    break;
  }
  return out;
}
