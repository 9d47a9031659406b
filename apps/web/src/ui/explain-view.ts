/** The "detalhes" panel under an answer (see lib/explain.ts for what it holds). */
import { ExplainModel, Pair } from '../lib/explain';
import { formatMs } from '../lib/format';
import { h } from './dom';

function pairs(list: Pair[]): HTMLElement {
  const dl = h('dl');
  for (const [k, v] of list) dl.append(h('dt', {}, k), h('dd', {}, v));
  return dl;
}

function section(title: string, ...content: Array<Node | null>): HTMLElement {
  return h('section', { class: 'x-section' }, h('h4', {}, title), ...content.filter((c): c is Node => !!c));
}

/** A section across the whole panel (tables, lists, bars). */
function wide(el: HTMLElement): HTMLElement {
  el.classList.add('x-wide');
  return el;
}

export function explainPanel(model: ExplainModel): HTMLDetailsElement {
  const body = h('div', { class: 'x-body' });
  if (model.question) body.append(section('Pergunta estruturada', pairs(model.question)));
  if (model.followUp.length) body.append(section('Conversa (o que foi herdado)', pairs(model.followUp)));
  const cands = model.candidates.length
    ? h(
        'table',
        { class: 'x-cands' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Leitura possível'), h('th', { class: 'num' }, 'Pontos'))),
        h(
          'tbody',
          {},
          ...model.candidates.map((c) =>
            h(
              'tr',
              { class: c.chosen ? 'chosen' : undefined },
              h('td', {}, c.entity, c.chosen ? h('span', { class: 'tag' }, 'escolhida') : null, c.label ? h('div', { class: 'muted' }, c.label) : null),
              h('td', { class: 'num' }, c.score),
            ),
          ),
        ),
      )
    : null;
  body.append(section('Dados e parâmetros', pairs(model.query)));
  if (model.planner.length) body.append(section('Como a pergunta foi lida', pairs(model.planner)));
  if (cands) body.append(wide(section('Leituras consideradas', cands)));
  if (model.tool) body.append(section('Ferramenta', pairs(model.tool)));
  const chunks = model.rag.chunks.length
    ? h(
        'ol',
        { class: 'x-chunks' },
        ...model.rag.chunks.map((c) => h('li', {}, h('strong', {}, c.title), ' ', h('span', { class: 'muted' }, `${c.source} · relevância ${c.score}`), h('div', {}, c.excerpt))),
      )
    : null;
  body.append(chunks ? wide(section('Base de conhecimento', pairs(model.rag.summary), chunks)) : section('Base de conhecimento', pairs(model.rag.summary)));
  if (model.narrator.length) body.append(section('Redação', pairs(model.narrator)));
  if (model.timings.steps.length) {
    const bars = h('div', { class: 'x-timings', role: 'list', 'aria-label': 'Tempo de cada etapa' });
    for (const s of model.timings.steps) {
      const fill = h('span', { class: 't-fill' });
      fill.style.width = `${Math.max(1, s.share)}%`; // CSSOM, allowed by the CSP (no style attribute)
      bars.append(
        h('div', { class: 't-row', role: 'listitem' }, h('span', { class: 't-label' }, s.label), h('span', { class: 't-bar' }, fill), h('span', { class: 't-val' }, s.text)),
      );
    }
    body.append(wide(section(`Tempos${model.timings.total !== null ? ` (total ${formatMs(model.timings.total)})` : ''}`, bars)));
  }
  return h('details', { class: 'explain' }, h('summary', {}, 'detalhes'), body);
}
