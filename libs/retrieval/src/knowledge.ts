import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { repoRoot } from '@cota/config';
import { KNOWLEDGE_COLLECTIONS } from './policy';

/** One chunk ready to be embedded and stored, whatever its origin. */
export interface ChunkDraft {
  chunk_id: string;
  doc_id: string;
  /** `knowledge` (the markdown files) or `news` (the warehouse table). */
  origin: 'knowledge' | 'news';
  collection: string;
  title: string;
  text: string;
  entity: string | null;
  source_id: string | null;
  url: string | null;
  tickers: string[];
  tags: string[];
  published_at: string | null;
}

const FrontMatter = z
  .object({
    title: z.string().min(3),
    collection: z.enum(KNOWLEDGE_COLLECTIONS),
    tags: z.array(z.string().min(1)).default([]),
    /** Catalog entity the document explains, when there is one (e.g. fiis_financials_risk). */
    entity: z.string().nullable().default(null),
  })
  .strict();

export interface KnowledgeDoc {
  doc_id: string;
  title: string;
  collection: string;
  tags: string[];
  entity: string | null;
  body: string;
}

export class KnowledgeError extends Error {
  constructor(file: string, detail: string) {
    super(`knowledge ${file}: ${detail}`);
    this.name = 'KnowledgeError';
  }
}

export function knowledgeDir(): string {
  return process.env.COTA_KNOWLEDGE_DIR ?? join(repoRoot(), 'knowledge');
}

/** Parses one markdown file with YAML front matter between `---` lines. */
export function parseKnowledgeDoc(fileName: string, content: string): KnowledgeDoc {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(content);
  if (!m) throw new KnowledgeError(fileName, 'has no front matter (--- ... ---)');
  let meta: unknown;
  try {
    meta = parse(m[1]);
  } catch (e) {
    throw new KnowledgeError(fileName, `front matter is not YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  const parsed = FrontMatter.safeParse(meta);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new KnowledgeError(fileName, `front matter field '${issue.path.join('.') || '(root)'}' ${issue.message}`);
  }
  const body = m[2].trim();
  if (body.length < 40) throw new KnowledgeError(fileName, 'body is too short to be useful');
  return { doc_id: basename(fileName, '.md'), ...parsed.data, body };
}

/** Reads every `*.md` of the knowledge folder, sorted by name (stable chunk ids and hash). */
export function readKnowledgeFiles(dir = knowledgeDir()): Array<{ name: string; content: string }> {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.md') && n.toLowerCase() !== 'readme.md')
    .sort()
    .map((name) => ({ name, content: readFileSync(join(dir, name), 'utf8') }));
}

export function contentHash(parts: string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\u0000');
  return h.digest('hex').slice(0, 32);
}

/**
 * Splits a document into chunks: one per `##` section, long sections cut at paragraph breaks.
 * Each chunk starts with the document title so a section read alone still says what it is about.
 */
export function chunkDocument(doc: KnowledgeDoc, maxChars = 900, minChars = 280): ChunkDraft[] {
  const sections: string[] = [];
  for (const raw of doc.body.split(/\n(?=##\s)/)) {
    const section = raw.replace(/^#\s.*\n/, '').trim();
    if (!section) continue;
    if (section.length <= maxChars) {
      sections.push(section);
      continue;
    }
    let current = '';
    for (const para of section.split(/\n\s*\n/)) {
      if (current && current.length + para.length + 2 > maxChars) {
        sections.push(current.trim());
        current = '';
      }
      current += (current ? '\n\n' : '') + para;
    }
    if (current.trim()) sections.push(current.trim());
  }
  // A very short section (an intro line) is merged into the next: tiny chunks win on cosine for the wrong reason.
  const merged: string[] = [];
  for (const s of sections) {
    const last = merged.length - 1;
    if (last >= 0 && merged[last].length < minChars && merged[last].length + s.length + 2 <= maxChars) merged[last] += `\n\n${s}`;
    else merged.push(s);
  }
  return merged.map((s, i) => ({
    chunk_id: `${doc.doc_id}#${i}`,
    doc_id: doc.doc_id,
    origin: 'knowledge' as const,
    collection: doc.collection,
    title: doc.title,
    text: `${doc.title}\n${s.replace(/^##\s+/gm, '')}`,
    entity: doc.entity,
    source_id: `knowledge/${doc.doc_id}.md`,
    url: null,
    tickers: [],
    tags: doc.tags,
    published_at: null,
  }));
}

/** The knowledge base as chunks plus its content hash (changes when any file changes). */
export function loadKnowledge(dir = knowledgeDir()): { chunks: ChunkDraft[]; hash: string; docs: KnowledgeDoc[] } {
  const files = readKnowledgeFiles(dir);
  if (files.length === 0) throw new KnowledgeError(dir, 'no *.md documents found');
  const docs = files.map((f) => parseKnowledgeDoc(f.name, f.content));
  return {
    docs,
    chunks: docs.flatMap((d) => chunkDocument(d)),
    hash: contentHash(files.flatMap((f) => [f.name, f.content])),
  };
}
