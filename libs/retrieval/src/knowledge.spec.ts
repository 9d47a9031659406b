import { fitToBudget, normalizeChunk } from './chunks';
import { chunkDocument, KnowledgeError, loadKnowledge, parseKnowledgeDoc } from './knowledge';
import { newsToChunks } from './news';
import { KNOWLEDGE_COLLECTIONS } from './policy';

describe('knowledge base', () => {
  const kb = loadKnowledge();

  it('has 25-40 documents covering the three collections', () => {
    expect(kb.docs.length).toBeGreaterThanOrEqual(25);
    expect(kb.docs.length).toBeLessThanOrEqual(40);
    for (const c of KNOWLEDGE_COLLECTIONS) expect(kb.docs.filter((d) => d.collection === c).length).toBeGreaterThanOrEqual(5);
  });

  it('has unique chunk ids and a stable hash', () => {
    expect(new Set(kb.chunks.map((c) => c.chunk_id)).size).toBe(kb.chunks.length);
    expect(loadKnowledge().hash).toBe(kb.hash);
  });

  it('rejects a document without valid front matter, naming the file and field', () => {
    expect(() => parseKnowledgeDoc('x.md', 'no front matter')).toThrow(KnowledgeError);
    expect(() => parseKnowledgeDoc('x.md', '---\ntitle: Título\ncollection: concepts-foo\n---\n' + 'texto '.repeat(20))).toThrow(
      /knowledge x\.md: front matter field 'collection'/,
    );
  });

  it('splits long documents by section, merging short intros, each chunk titled', () => {
    const doc = parseKnowledgeDoc(
      'd.md',
      `---\ntitle: Documento\ncollection: concepts-fiis\ntags: [a]\n---\nIntro curta.\n\n## Parte um\n${'alfa '.repeat(150)}\n\n## Parte dois\n${'beta '.repeat(150)}`,
    );
    const chunks = chunkDocument(doc);
    expect(chunks).toHaveLength(2);
    expect(chunks[0].text.startsWith('Documento\nIntro curta.')).toBe(true);
    expect(chunks[1].text).toContain('Parte dois');
    expect(chunks.map((c) => c.chunk_id)).toEqual(['d#0', 'd#1']);
  });
});

describe('chunk normalisation', () => {
  it('takes text from text/content/body/snippet and keeps metadata', () => {
    expect(normalizeChunk({ content: ' corpo ', score: '0.51234', doc_id: 'd', collection: 'c', tags: ['x', 3] })).toEqual({
      text: 'corpo',
      score: 0.5123,
      doc_id: 'd',
      chunk_id: 'd',
      collection: 'c',
      entity: null,
      source_id: null,
      tags: ['x'],
    });
    expect(normalizeChunk({ snippet: 's', score: 'nan' })?.score).toBe(0);
    expect(normalizeChunk({ score: 1 })).toBeNull();
  });

  it('fits chunks into the character budget', () => {
    const mk = (n: number, id: string) => normalizeChunk({ text: 'palavra '.repeat(n).trim(), doc_id: id, score: 1 })!;
    const out = fitToBudget([mk(20, 'a'), mk(100, 'b'), mk(5, 'c')], 400);
    expect(out.map((c) => c.doc_id)).toEqual(['a', 'b']);
    expect(out.reduce((n, c) => n + c.text.length, 0)).toBeLessThanOrEqual(400);
    expect(out[1].text.endsWith('…')).toBe(true);
    expect(fitToBudget([mk(100, 'a')], 100)).toEqual([]);
  });
});

describe('news chunks', () => {
  it('keeps ticker, source and url and drops duplicates', () => {
    const item = { ticker: 'HGLG11', source: 'Portal', title: 'Título', description: 'x'.repeat(900), url: 'https://e.org/1', published_at: '2025-01-02' };
    const chunks = newsToChunks([item, { ...item }]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ collection: 'fiis_noticias', tickers: ['HGLG11'], source_id: 'https://e.org/1', url: 'https://e.org/1' });
    expect(chunks[0].tags).toEqual(['HGLG11', 'fonte:Portal', 'data:2025-01-02']);
    expect(chunks[0].text).toContain('Fonte: Portal (https://e.org/1)');
    expect(chunks[0].text.length).toBeLessThan(800);
  });
});
