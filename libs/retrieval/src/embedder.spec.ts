import { createServer } from 'node:http';
import { cosine, HashingEmbedder, OpenAiEmbedder } from './embedder';
import { createEmbedder } from './factory';
import { loadRagPolicy } from './policy';
import { charNgrams, normalizeText, stem, tokenize } from './text';

describe('text features', () => {
  it('normalises accents, case and ratios', () => {
    expect(normalizeText('Qual o P/VP do fundo? Vacância!')).toBe('qual o pvp do fundo vacancia');
    expect(normalizeText('IGP-M')).toBe('igpm');
    expect(tokenize('O que é o P/VP?')).toEqual(['pvp']);
  });

  it('stems inflections to the same root', () => {
    expect(stem('imobiliarios')).toBe(stem('imobiliario'));
    expect(stem('rendimentos')).toBe(stem('rendimento'));
    expect(stem('fii')).toBe('fii');
    expect(stem('hglg11')).toBe('hglg11');
  });

  it('builds boundary-marked trigrams', () => {
    expect(charNgrams('cdi')).toEqual(['#cd', 'cdi', 'di#']);
  });
});

describe('HashingEmbedder', () => {
  const corpus = ['valor patrimonial por cota e P/VP', 'vacância física e financeira dos imóveis', 'taxa Selic e juros'];

  it('is deterministic across instances and fits', async () => {
    const a = await new HashingEmbedder(256).fit(corpus);
    const b = await new HashingEmbedder(256).fit(corpus);
    const [va] = await a.embed(['o que é p/vp']);
    const [vb] = await b.embed(['o que é p/vp']);
    expect(va).toEqual(vb);
    expect(va).toHaveLength(256);
    expect(Math.abs(cosine(va, va) - 1)).toBeLessThan(1e-9);
  });

  it('restores the same model from stored state', async () => {
    const e = new HashingEmbedder(128);
    const fitted = await e.fit(corpus);
    const restored = e.restore(fitted.state);
    expect(await restored.embed(['juros'])).toEqual(await fitted.embed(['juros']));
    expect(() => e.restore([1, 2, 3])).toThrow(/buckets/);
  });

  it('puts related texts closer than unrelated ones', async () => {
    const m = await new HashingEmbedder(512).fit(corpus);
    const [q, pvp, vac] = await m.embed(['qual o pvp', corpus[0], corpus[1]]);
    expect(cosine(q, pvp)).toBeGreaterThan(cosine(q, vac));
  });

  it('embeds empty text as the zero vector', async () => {
    const m = await new HashingEmbedder(64).fit(corpus);
    const [z] = await m.embed(['']);
    expect(z.every((x) => x === 0)).toBe(true);
  });
});

describe('OpenAiEmbedder', () => {
  it('calls an OpenAI-compatible /embeddings endpoint and normalises the vectors', async () => {
    const seen: Array<{ model: string; input: string[] }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const parsed = JSON.parse(body);
        seen.push(parsed);
        const data = (parsed.input as string[]).map((t, index) => ({ object: 'embedding', index, embedding: [t.length, 0, 3] }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: parsed.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      const e = new OpenAiEmbedder({ apiKey: 'k', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'emb-test', timeoutMs: 2000, batchSize: 2 });
      expect(e.id).toBe('openai:emb-test');
      const m = await e.fit();
      const out = await m.embed(['abcd', 'x', 'yy']);
      expect(seen.map((s) => s.input.length)).toEqual([2, 1]);
      expect(seen[0].model).toBe('emb-test');
      expect(out[0][0]).toBeCloseTo(0.8);
      expect(out[0][2]).toBeCloseTo(0.6);
    } finally {
      server.close();
    }
  });
});

describe('embedder id', () => {
  it('names the dimension and fingerprints the text features', () => {
    expect(new HashingEmbedder(384).id).toMatch(/^hashing-v1-384-[0-9a-z]+$/);
    expect(new HashingEmbedder(384).id).toBe(new HashingEmbedder(384).id);
  });
});

describe('createEmbedder', () => {
  const policy = loadRagPolicy();
  const none = { apiKey: null, baseUrl: null, model: null };
  const configured = { apiKey: 'k', baseUrl: null, model: null };

  it('uses the local embedder when the policy says local, even with OpenAI configured', () => {
    expect(createEmbedder(policy, configured).embedder).toBeInstanceOf(HashingEmbedder);
  });

  it('uses OpenAI embeddings only when preferred and configured', () => {
    const prefer = { ...policy, embedder: { ...policy.embedder, prefer: 'openai' as const } };
    expect(createEmbedder(prefer, configured).embedder.id).toBe(`openai:${policy.embedder.openai_model}`);
    const fallback = createEmbedder(prefer, none);
    expect(fallback.embedder).toBeInstanceOf(HashingEmbedder);
    expect(fallback.reason).toMatch(/not set/);
  });
});
