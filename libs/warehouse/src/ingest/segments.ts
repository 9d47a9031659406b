import { codeOf } from '@cota/text';

/**
 * Segment names differ between sources (BTLG11 is "Híbrido" at CVM and "Logística" elsewhere).
 * Every raw label maps to one canonical segment; `generic` segments lose to a specific one.
 */
const CANONICAL: Array<[segment: string, generic: boolean, labels: string[], type: FundType | null]> = [
  ['Logística', false, ['Imóveis Industriais e Logísticos', 'Logisticos', 'Logistica', 'Logística'], 'Tijolo'],
  ['Lajes Corporativas', false, ['Lajes Corporativas', 'Lajes Comerciais', 'Escritórios'], 'Tijolo'],
  ['Shoppings', false, ['Shoppings', 'Shopping/Varejo'], 'Tijolo'],
  ['Varejo e Renda Urbana', false, ['Varejo', 'Imóveis Comerciais'], 'Tijolo'],
  ['Recebíveis', false, ['Títulos e Valores Mobiliários', 'Títulos e Val. Mob.', 'Titulos E Val. Mob.', 'Recebiveis Imobiliarios', 'Recebíveis Imobiliários'], 'Papel'],
  ['Fundo de Fundos', false, ['FOF', 'Fundo De Fundos'], 'FoF'],
  ['Residencial', false, ['Residencial', 'Incorporacao Residencial'], 'Tijolo'],
  ['Desenvolvimento', false, ['Desenvolvimento', 'Incorporações', 'Incorporacao'], 'Desenvolvimento'],
  ['Hospitalar', false, ['Hospitalar', 'Hospital'], 'Tijolo'],
  ['Hotelaria', false, ['Hotéis', 'Hoteis', 'Hotel'], 'Tijolo'],
  ['Agências Bancárias', false, ['Agências de Bancos', 'Agencias Bancarias'], 'Tijolo'],
  ['Educacional', false, ['Educacional'], 'Tijolo'],
  ['Agronegócio', false, ['Agronegocio', 'Fazendas'], null],
  ['Infraestrutura', false, ['Infra'], null],
  ['Serviços Financeiros', false, ['Serviços Financeiros Diversos'], null],
  ['Híbrido', true, ['Híbrido', 'Hibrido', 'Multicategoria'], 'Híbrido'],
  ['Outros', true, ['Outros', 'Renda'], null],
];

const BY_CODE = new Map<string, { segment: string; generic: boolean }>();
for (const [segment, generic, labels] of CANONICAL) for (const l of labels) BY_CODE.set(codeOf(l), { segment, generic });
const TYPE_OF = new Map<string, FundType | null>(CANONICAL.map(([segment, , , type]) => [segment, type]));

/**
 * The registry's fund types (araquem's classification, as stored). A segment implies one for a fund
 * whose registry gives none: receivables are papel, buildings of one use are tijolo. Agribusiness,
 * infrastructure and "outros" can be either, so they imply none.
 */
export type FundType = 'Papel' | 'Tijolo' | 'Híbrido' | 'Desenvolvimento' | 'FoF';

/** The type a canonical segment implies, or null when it implies none. */
export function typeOfSegment(segment: string | null): FundType | null {
  return segment ? (TYPE_OF.get(segment) ?? null) : null;
}

/** The canonical segment of a raw label, or null for an unknown/empty label. */
export function mapSegment(label: string | null): { segment: string; generic: boolean } | null {
  if (!label) return null;
  return BY_CODE.get(codeOf(label)) ?? null;
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
