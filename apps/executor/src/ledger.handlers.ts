import { Controller, Inject } from '@nestjs/common';
import { CotaError, ExecutorSubjects, RequestOf } from '@cota/contracts';
import { RpcHandler } from '@cota/messaging';
import { INFRA, Infra, requireDatabase } from '@cota/service-kit';
import { ImportRejected, LedgerImports, readLedger } from '@cota/ledger';
import { yearlyReport, yearlyReportCsv } from '@cota/portfolio';

/**
 * The client's ledger over the bus: B3 statements the gateway received (`stage-import`: read,
 * checked and kept for the client's confirmation; nothing in the ledger yet), an import's state
 * (`get-import`), and the yearly income-tax report as CSV (`tax-report`). Every call is scoped by
 * the client the gateway authenticated.
 */
@Controller()
export class LedgerHandlers {
  private readonly imports: LedgerImports;

  constructor(@Inject(INFRA) private readonly infra: Infra) {
    this.imports = new LedgerImports(requireDatabase(infra));
  }

  @RpcHandler(ExecutorSubjects.stageImport)
  async stage(req: RequestOf<typeof ExecutorSubjects.stageImport>) {
    const bytes = Buffer.from(req.content_base64, 'base64');
    try {
      const view = await this.imports.stage({ client_id: req.client_id, conversation_id: req.conversation_id, file_name: req.file_name, bytes });
      return { import: view, message: view.preview, errors: [] };
    } catch (e) {
      if (e instanceof ImportRejected) return { import: null, message: e.message, errors: e.errors };
      throw e;
    }
  }

  @RpcHandler(ExecutorSubjects.getImport)
  async get(req: RequestOf<typeof ExecutorSubjects.getImport>) {
    return { import: await this.imports.get(req.client_id, req.import_id) };
  }

  @RpcHandler(ExecutorSubjects.taxReport)
  async taxReport(req: RequestOf<typeof ExecutorSubjects.taxReport>) {
    const db = requireDatabase(this.infra);
    const ledger = await readLedger(db, req.client_id);
    if (!ledger.length) throw new CotaError('NOT_FOUND', 'Sua carteira ainda não tem lançamentos: importe o extrato da B3 primeiro.');
    const tickers = [...new Set(ledger.map((e) => e.ticker))];
    const funds: Array<{ ticker: string; fii_cnpj: string | null; display_name: string | null }> = await db.query(
      `SELECT ticker, fii_cnpj, display_name FROM wh_funds WHERE ticker = ANY($1::text[])`,
      [tickers],
    );
    const report = yearlyReport(ledger, req.year, new Map(funds.map((f) => [f.ticker, { cnpj: f.fii_cnpj, name: f.display_name }])));
    const empty = !report.bens.length && !report.rendimentosIsentos.length && !report.rendaVariavelFii.length;
    return { file_name: `cota-imposto-de-renda-${req.year}.csv`, csv: yearlyReportCsv(report), empty };
  }
}
