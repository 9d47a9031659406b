import { CotaError } from '@cota/contracts';
import { AlertRule, describeRule, ruleFromArgs } from './rule';
import type { AlertStore, StoredRule } from './store';

/** The chat's alert tools (policies/tool_gate.yaml): create (after a preview), list, pause, resume, remove. */
export interface AlertToolContext {
  client_id: string;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** `criar_alerta`: with `previa` it only says what it will watch; confirmed, it creates the rule once. */
export async function createAlert(store: AlertStore, args: Record<string, unknown>, ctx: AlertToolContext) {
  const rule = ruleFromArgs(args);
  const resumo = `um alerta ${describeRule(rule)}`;
  if (args.previa === true) return { resumo, regra: rule };
  const key = str(args.confirmacao_id) ? `${ctx.client_id}:${str(args.confirmacao_id)}` : null;
  const { rule: stored, created } = await store.create(ctx.client_id, rule, key);
  const text = created
    ? `Pronto: criei ${resumo}. O aviso aparece nas suas notificações (o sino da página) e vai por e-mail quando houver um cadastrado. ` +
      'Para ver seus alertas, pergunte "quais alertas eu tenho?".'
    : `Esse alerta já estava criado: ${stored.description}.`;
  return { resumo, alerta_id: stored.rule_id, criado: created, text };
}

const STATUS_WORD: Record<StoredRule['status'], string> = { active: 'ativo', paused: 'pausado' };

/** `listar_alertas`: the client's rules, numbered in creation order (the numbers the other tools take). */
export async function listAlerts(store: AlertStore, ctx: AlertToolContext) {
  const rules = await store.list(ctx.client_id);
  if (!rules.length) {
    return { alertas: [], text: 'Você não tem alertas. Crie um dizendo, por exemplo, "me avise quando o XPML11 anunciar dividendo" ou "avise se a Selic cair abaixo de 10%".' };
  }
  const lines = rules.map((r, i) => `${i + 1}. Avisar ${r.description} (${STATUS_WORD[r.status]})`);
  return {
    alertas: rules.map((r, i) => ({ numero: i + 1, alerta_id: r.rule_id, descricao: r.description, situacao: STATUS_WORD[r.status] })),
    text: `Seus alertas:\n\n${lines.join('\n')}\n\nPara pausar ou remover, diga por exemplo "pausar alerta 1" ou "remover alerta 2".`,
  };
}

/** `pausar_alerta`, `reativar_alerta`, `remover_alerta`: the alert named by its number or its fund. */
export async function changeAlert(store: AlertStore, action: AlertAction, args: Record<string, unknown>, ctx: AlertToolContext) {
  const target = pick(await store.list(ctx.client_id), args);
  const { text } = await applyChange(store, action, target, ctx);
  return { alerta_id: target.rule_id, text };
}

export type AlertAction = 'pause' | 'resume' | 'remove';

/** The client's alerts as the page's panel lists them, numbered as in the chat. */
export async function alertsPanel(store: AlertStore, clientId: string) {
  return (await store.list(clientId)).map((r, i) => ({ alert_id: r.rule_id, number: i + 1, description: r.description, status: r.status, created_at: r.created_at }));
}

/** The page's pause, resume and remove buttons: the alert by its id, then the list as it is after the change. */
export async function changeAlertById(store: AlertStore, action: AlertAction, alertId: string, ctx: AlertToolContext) {
  const target = (await store.list(ctx.client_id)).find((r) => r.rule_id === alertId);
  if (!target) return { found: false, changed: false, message: 'Esse alerta não existe (ou já foi removido).', alerts: await alertsPanel(store, ctx.client_id) };
  const { changed, text } = await applyChange(store, action, target, ctx);
  return { found: true, changed, message: text, alerts: await alertsPanel(store, ctx.client_id) };
}

async function applyChange(store: AlertStore, action: AlertAction, target: StoredRule, ctx: AlertToolContext): Promise<{ changed: boolean; text: string }> {
  const what = `o alerta ${target.description}`;
  if (action === 'remove') {
    await store.remove(ctx.client_id, target.rule_id);
    return { changed: true, text: `Removi ${what}.` };
  }
  const status = action === 'pause' ? 'paused' : 'active';
  if (target.status === status) return { changed: false, text: `${capital(what)} já estava ${STATUS_WORD[status]}.` };
  await store.setStatus(ctx.client_id, target.rule_id, status);
  return { changed: true, text: action === 'pause' ? `Pausei ${what}: ele não avisa até você pedir "reativar alerta".` : `Reativei ${what}.` };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function pick(rules: StoredRule[], args: Record<string, unknown>): StoredRule {
  if (!rules.length) throw new CotaError('NOT_FOUND', 'Você não tem alertas.');
  const numero = args.numero === undefined || args.numero === null ? null : Number(args.numero);
  if (numero !== null) {
    const r = rules[numero - 1];
    if (!r) throw new CotaError('NOT_FOUND', `Não há o alerta ${numero}: você tem ${rules.length} (pergunte "quais alertas eu tenho?").`);
    return r;
  }
  const ticker = str(args.ticker)?.toUpperCase() ?? null;
  const matching = ticker ? rules.filter((r) => tickerOf(r.rule) === ticker) : rules;
  if (matching.length === 1) return matching[0];
  if (!matching.length) throw new CotaError('NOT_FOUND', `Você não tem alerta do ${ticker}. Pergunte "quais alertas eu tenho?" para ver os números.`);
  const options = matching.map((r) => `${rules.indexOf(r) + 1}. ${r.description}`).join('; ');
  throw new CotaError('BAD_REQUEST', `Qual alerta? ${options}. Diga o número (ex.: "alerta ${rules.indexOf(matching[0]) + 1}").`, { alert_question: true });
}

function tickerOf(rule: AlertRule): string | null {
  return rule.ticker ?? null;
}
