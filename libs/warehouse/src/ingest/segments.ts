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
 * Picks the segment from labels given in source precedence order: the first specific one, else the
 * first generic one. Returns the chosen segment and the source it came from.
 */
export function chooseSegment(labels: Array<{ source: string; label: string | null }>): { segment: string; source: string } | null {
  let generic: { segment: string; source: string } | null = null;
  for (const { source, label } of labels) {
    const m = mapSegment(label);
    if (!m) continue;
    if (!m.generic) return { segment: m.segment, source };
    generic ??= { segment: m.segment, source };
  }
  return generic;
}

/** Every canonical segment name (what the warehouse stores and filters on). */
export const CANONICAL_SEGMENTS: readonly string[] = CANONICAL.map(([segment]) => segment);
