import { normaliseCode } from '../query/query-builder';

/**
 * Segment names differ between sources (BTLG11 is "Híbrido" at CVM and "Logística" elsewhere).
 * Every raw label maps to one canonical segment; `generic` segments lose to a specific one.
 */
const CANONICAL: Array<[segment: string, generic: boolean, labels: string[]]> = [
  ['Logística', false, ['Imóveis Industriais e Logísticos', 'Logisticos', 'Logistica', 'Logística']],
  ['Lajes Corporativas', false, ['Lajes Corporativas', 'Lajes Comerciais', 'Escritórios']],
  ['Shoppings', false, ['Shoppings', 'Shopping/Varejo']],
  ['Varejo e Renda Urbana', false, ['Varejo', 'Imóveis Comerciais']],
  ['Recebíveis', false, ['Títulos e Valores Mobiliários', 'Títulos e Val. Mob.', 'Titulos E Val. Mob.', 'Recebiveis Imobiliarios', 'Recebíveis Imobiliários']],
  ['Fundo de Fundos', false, ['FOF', 'Fundo De Fundos']],
  ['Residencial', false, ['Residencial', 'Incorporacao Residencial']],
  ['Desenvolvimento', false, ['Desenvolvimento', 'Incorporações', 'Incorporacao']],
  ['Hospitalar', false, ['Hospitalar', 'Hospital']],
  ['Hotelaria', false, ['Hotéis', 'Hoteis', 'Hotel']],
  ['Agências Bancárias', false, ['Agências de Bancos', 'Agencias Bancarias']],
  ['Educacional', false, ['Educacional']],
  ['Agronegócio', false, ['Agronegocio', 'Fazendas']],
  ['Infraestrutura', false, ['Infra']],
  ['Serviços Financeiros', false, ['Serviços Financeiros Diversos']],
  ['Híbrido', true, ['Híbrido', 'Hibrido', 'Multicategoria']],
  ['Outros', true, ['Outros', 'Renda']],
];

const BY_CODE = new Map<string, { segment: string; generic: boolean }>();
for (const [segment, generic, labels] of CANONICAL) for (const l of labels) BY_CODE.set(normaliseCode(l), { segment, generic });

/** The canonical segment of a raw label, or null for an unknown/empty label. */
export function mapSegment(label: string | null): { segment: string; generic: boolean } | null {
  if (!label) return null;
  return BY_CODE.get(normaliseCode(label)) ?? null;
}

/**
 * Picks the segment from labels given in source precedence order. The first source's label wins
 * when it is specific (TGAR11 is "Desenvolvimento" at araquem, "Híbrido" at CVM and the dashboard),
 * like every other registry field. A generic first label says little, so then the segment most
 * sources give wins (JSRE11: "Híbrido" at araquem, CVM and paulo037 over the dashboard's "Lajes
 * Comerciais"), a specific one on a tie (BTLG11: "Logística" over CVM's "Híbrido"), then precedence.
 * Returns the chosen segment and the first source that gave it.
 */
export function chooseSegment(labels: Array<{ source: string; label: string | null }>): { segment: string; source: string } | null {
  const votes = new Map<string, { segment: string; source: string; generic: boolean; n: number; first: number }>();
  const voted = new Set<string>();
  labels.forEach(({ source, label }, i) => {
    const m = mapSegment(label);
    // One vote per source (a source may describe a fund more than once).
    if (!m || voted.has(source)) return;
    voted.add(source);
    const v = votes.get(m.segment) ?? { segment: m.segment, source, generic: m.generic, n: 0, first: i };
    v.n++;
    votes.set(m.segment, v);
  });
  const ranked = [...votes.values()];
  const first = ranked.find((v) => v.first === Math.min(...ranked.map((x) => x.first)));
  if (first && !first.generic) return { segment: first.segment, source: first.source };
  const best = ranked.sort((a, b) => b.n - a.n || Number(a.generic) - Number(b.generic) || a.first - b.first)[0];
  return best ? { segment: best.segment, source: best.source } : null;
}

/** Every canonical segment name (what the warehouse stores and filters on). */
export const CANONICAL_SEGMENTS: readonly string[] = CANONICAL.map(([segment]) => segment);
