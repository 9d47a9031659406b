import { z } from 'zod';
import { CotaError, type FinanceToolArgs, ToolRunRequest, ToolRunResponse } from '@cota/contracts';
import { buildDailyBriefing } from './daily-briefing';
import { calculateFinance } from './finance-tool';
import { filterReport, SectionVocabulary, SegmentVocabulary } from './report-filter';
import { ClientDirectory, Mailer, ReportRepository } from './repositories';
import { newReportId, Report, ReportFilters } from './report';
import { WarehouseQuery } from './warehouse-query';
import { incomeCalendar, magicNumber } from './fund-income';
import { simulateSaleTax } from './tax';
import { todayInBrazil } from '@cota/periods';
import { CategoryVocabulary, queryTransactions, registerTransaction, TransactionRepository } from './transactions';
import { importStatement, MeasureReader, monthlySaleTax, portfolioReturn, registerTrade, soldFundTax, yearlyTaxReport } from './ledger';
import type { Queryable } from '@cota/ledger';
import type { LedgerImports, LedgerTrades } from '@cota/ledger';
import { changeAlert, createAlert, listAlerts, type AlertStore } from '@cota/alerts';

export type ToolRun = z.infer<typeof ToolRunRequest>;
export type ToolRunOutput = z.infer<typeof ToolRunResponse>;

export interface ToolExecutorDeps {
  reports: ReportRepository;
  mailer: Mailer;
  clients: ClientDirectory;
  warehouse: WarehouseQuery;
  /** The client's own expenses and income. */
  transactions: TransactionRepository;
  /** The client's ledger: B3 statement imports and trades told in the chat. */
  ledger?: { imports: LedgerImports; trades: LedgerTrades; db: Queryable };
  /** The measure catalog's reads (closes, income received, benchmarks): the portfolio's return. */
  measures?: MeasureReader;
  /** The client's alert rules (libs/alerts). */
  alerts?: AlertStore;
  /** Filter vocabulary from policies/tool_gate.yaml (`filters`). */
  vocabulary: { sections: SectionVocabulary; segments: SegmentVocabulary; categories: CategoryVocabulary };
  now?: () => Date;
  randomId?: () => string;
}

/** The tool names the executor runs (the gate's policy declares their contracts). */
export const TOOL_NAMES = [
  'gerar_relatorio_diario',
  'filtrar_relatorio',
  'enviar_relatorio_email',
  'calcular_financas',
  'numero_magico',
  'registrar_transacao',
  'consultar_transacoes',
  'simular_ir_venda',
  'calendario_proventos',
  'importar_extrato',
  'registrar_operacao',
  'apurar_ir_vendas',
  'relatorio_ir_anual',
  'rentabilidade_carteira',
  'criar_alerta',
  'listar_alertas',
  'pausar_alerta',
  'reativar_alerta',
  'remover_alerta',
] as const;

const EMAIL_RE = /^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$/i;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * Runs tool calls the gate approved. Every report read is scoped to the calling client, so a
 * report id from another client is simply "not found". Expected failures are CotaErrors with a
 * pt-BR message the gate shows as is.
 */
export class ToolExecutor {
  private readonly now: () => Date;

  constructor(private readonly deps: ToolExecutorDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async run(req: ToolRun): Promise<ToolRunOutput> {
    switch (req.name) {
      case 'gerar_relatorio_diario':
        return this.dailyReport(req);
      case 'filtrar_relatorio':
        return this.filter(req);
      case 'enviar_relatorio_email':
        return this.email(req);
      case 'calcular_financas':
        return this.done(req, calculateFinance(req.args as FinanceToolArgs));
      case 'numero_magico':
        return this.done(req, await magicNumber(this.deps.warehouse, req.args, req));
      case 'calendario_proventos':
        return this.done(req, await incomeCalendar(this.deps.warehouse, req));
      case 'simular_ir_venda':
        return this.done(
          req,
          await simulateSaleTax(this.deps.warehouse, req.args, { ...req, today: this.today() }, (ticker) =>
            this.deps.ledger ? soldFundTax(this.deps.ledger.db, ticker, req) : Promise.resolve(null),
          ),
        );
      case 'registrar_transacao':
        return this.done(req, await registerTransaction(this.deps.transactions, this.deps.vocabulary.categories, req.args, { ...req, today: this.today() }));
      case 'consultar_transacoes':
        return this.done(req, await queryTransactions(this.deps.transactions, this.deps.vocabulary.categories, req.args, { ...req, today: this.today() }));
      case 'importar_extrato':
        return this.done(req, await importStatement(this.ledger(), req.args, { ...req, today: this.today() }));
      case 'registrar_operacao':
        return this.done(req, await registerTrade(this.ledger(), req.args, { ...req, today: this.today() }));
      case 'apurar_ir_vendas':
        return this.done(req, await monthlySaleTax(this.ledger().db, req.args, req));
      case 'relatorio_ir_anual':
        return this.taxReport(req);
      case 'rentabilidade_carteira':
        if (!this.deps.measures) throw new CotaError('UNAVAILABLE', 'measure reads are not wired in this executor');
        return this.done(req, await portfolioReturn(this.ledger().db, this.deps.measures, req.args, { ...req, today: this.today() }));
      case 'criar_alerta':
        return this.done(req, await createAlert(this.alerts(), req.args, req));
      case 'listar_alertas':
        return this.done(req, await listAlerts(this.alerts(), req));
      case 'pausar_alerta':
        return this.done(req, await changeAlert(this.alerts(), 'pause', req.args, req));
      case 'reativar_alerta':
        return this.done(req, await changeAlert(this.alerts(), 'resume', req.args, req));
      case 'remover_alerta':
        return this.done(req, await changeAlert(this.alerts(), 'remove', req.args, req));
      default:
        throw new CotaError('BAD_REQUEST', `A ferramenta "${req.name}" não existe.`);
    }
  }

  private alerts(): AlertStore {
    if (!this.deps.alerts) throw new CotaError('UNAVAILABLE', 'alert tools are not wired in this executor');
    return this.deps.alerts;
  }

  private ledger() {
    if (!this.deps.ledger) throw new CotaError('UNAVAILABLE', 'ledger tools are not wired in this executor');
    return { ...this.deps.ledger, warehouse: this.deps.warehouse };
  }

  private done(req: ToolRun, result: unknown): ToolRunOutput {
    return { name: req.name, ok: true, result, session_updates: [] };
  }

  /** Today in Brazil, the client's calendar (transactions are dated by it). */
  private today(): string {
    return todayInBrazil(this.now());
  }

  /** The yearly income-tax report, stored as a report of the conversation so "manda por e-mail" sends it. */
  private async taxReport(req: ToolRun): Promise<ToolRunOutput> {
    const out = await yearlyTaxReport(this.ledger().db, req.args, { ...req, today: this.today() });
    const now = this.now();
    const report: Report = {
      report_id: newReportId(now, this.deps.randomId),
      kind: 'income_tax',
      title: `Imposto de renda ${out.ano + 1} (ano-calendário ${out.ano}): FIIs`,
      generated_at: now.toISOString(),
      parent_report_id: null,
      filters: null,
      sections: out.sections,
      sources: ['ledger'],
      text: out.text,
    };
    await this.deps.reports.save({ client_id: req.client_id, conversation_id: req.conversation_id, report });
    return { name: req.name, ok: true, result: { ...out, report_id: report.report_id }, session_updates: [{ key: 'last_report_id', value: report.report_id, ttl_seconds: null }] };
  }

  private async dailyReport(req: ToolRun): Promise<ToolRunOutput> {
    const report = await buildDailyBriefing(this.deps.warehouse, {
      request_id: req.request_id,
      client_id: req.client_id,
      now: this.now(),
      randomId: this.deps.randomId,
    });
    await this.deps.reports.save({ client_id: req.client_id, conversation_id: req.conversation_id, report });
    return {
      name: req.name,
      ok: true,
      result: report,
      // TTLs come from the gate's policy (null here).
      session_updates: [
        { key: 'active_report_id', value: report.report_id, ttl_seconds: null },
        { key: 'last_report_id', value: report.report_id, ttl_seconds: null },
      ],
    };
  }

  private async load(clientId: string, reportId: unknown): Promise<Report> {
    const id = str(reportId);
    if (!id) throw new CotaError('BAD_REQUEST', 'Nenhum relatório ativo. Gere um relatório primeiro (ex.: "o que temos pra hoje?").');
    const report = await this.deps.reports.findForClient(clientId, id);
    if (!report) throw new CotaError('NOT_FOUND', `Não encontrei o relatório ${id} entre os seus relatórios. Gere um novo com "o que temos pra hoje?".`);
    return report;
  }

  private async filter(req: ToolRun): Promise<ToolRunOutput> {
    const source = await this.load(req.client_id, req.args.report_id);
    const filters: ReportFilters = {};
    const secao = str(req.args.secao);
    const segmento = str(req.args.segmento);
    if (secao) {
      if (!this.deps.vocabulary.sections[secao]) throw new CotaError('BAD_REQUEST', `Seção desconhecida: ${secao}.`);
      filters.secao = secao;
    }
    if (segmento) {
      if (!this.deps.vocabulary.segments[segmento]) throw new CotaError('BAD_REQUEST', `Segmento desconhecido: ${segmento}.`);
      filters.segmento = segmento;
    }
    if (Array.isArray(req.args.tickers) && req.args.tickers.length) filters.tickers = req.args.tickers.map(String);
    if (!filters.secao && !filters.segmento && !filters.tickers) {
      throw new CotaError('BAD_REQUEST', 'Diga como quer filtrar o relatório: por seção, por segmento ou por fundo.');
    }
    const report = filterReport(source, filters, this.deps.vocabulary, this.now(), this.deps.randomId);
    await this.deps.reports.save({ client_id: req.client_id, conversation_id: req.conversation_id, report });
    // Filters keep applying to the full briefing (active_report_id); e-mail sends what was last shown.
    return { name: req.name, ok: true, result: report, session_updates: [{ key: 'last_report_id', value: report.report_id, ttl_seconds: null }] };
  }

  private async email(req: ToolRun): Promise<ToolRunOutput> {
    const report = await this.load(req.client_id, req.args.report_id);
    const written = str(req.args.destinatario);
    if (written && !EMAIL_RE.test(written)) throw new CotaError('BAD_REQUEST', `O endereço "${written}" não parece um e-mail válido.`);
    const recipient = written?.toLowerCase() ?? (await this.deps.clients.emailOf(req.client_id));
    if (!recipient) {
      throw new CotaError('BAD_REQUEST', 'Não encontrei um e-mail cadastrado para você. Diga para qual endereço enviar (ex.: "manda para nome@exemplo.com.br").');
    }
    const preview = {
      report_id: report.report_id,
      titulo: report.title,
      destinatario: recipient,
      destinatario_origem: written ? 'pergunta' : 'cadastro',
      // The question the person confirms already says whether the e-mail will really leave.
      entrega_prevista: this.deps.mailer.delivers
        ? 'O e-mail sai em instantes.'
        : 'Aviso: neste ambiente não há servidor de e-mail configurado, então o relatório fica guardado na caixa de saída e não é enviado.',
    };
    if (req.args.previa === true) return { name: req.name, ok: true, result: preview, session_updates: [] };

    const queued = await this.deps.mailer.queue({
      client_id: req.client_id,
      report_id: report.report_id,
      recipient,
      subject: `Cota — ${report.title}`,
      body: report.text,
      request_id: req.request_id,
      // Scoped by client: one client's confirmation id can never collide with another's message.
      idempotency_key: str(req.args.confirmacao_id) ? `${req.client_id}:${str(req.args.confirmacao_id)}` : null,
    });
    // Says what really happens: with SMTP configured a worker delivers it; without, it is only stored.
    const delivers = this.deps.mailer.delivers;
    const text = delivers
      ? `O relatório "${report.title}" foi colocado na fila de envio para ${recipient} e será entregue em instantes.`
      : `O relatório "${report.title}" foi guardado na caixa de saída, mas não foi enviado para ${recipient}: ` + 'não há servidor de e-mail configurado neste ambiente.';
    return {
      name: req.name,
      ok: true,
      result: {
        ...preview,
        status: 'queued',
        entrega: delivers ? 'smtp' : 'desativada',
        message_id: queued.message_id,
        queued_at: queued.created_at,
        text,
      },
      session_updates: [],
    };
  }
}
