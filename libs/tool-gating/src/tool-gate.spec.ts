import { CotaError } from '@cota/contracts';
import { loadToolGatePolicy } from './policy';
import { ConversationRef, SessionStore, ToolRun, ToolRunner, ToolRunResult } from './ports';
import { GateRequest, ToolGate } from './tool-gate';

const policy = loadToolGatePolicy();

/** In-memory session with TTLs on a controllable clock, like the context service's store. */
class FakeSession implements SessionStore {
  readonly data = new Map<string, { value: unknown; expires: number | null }>();
  readonly writes: Array<{ key: string; value: unknown; ttl: number | null }> = [];
  constructor(private readonly clock: { now: number }) {}
  private k(c: ConversationRef, key: string) {
    return `${c.client_id}|${c.conversation_id}|${key}`;
  }
  async get(c: ConversationRef, keys: string[]) {
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const e = this.data.get(this.k(c, key));
      if (e && (e.expires === null || e.expires > this.clock.now)) out[key] = e.value;
    }
    return out;
  }
  async set(c: ConversationRef, key: string, value: unknown, ttl: number | null) {
    this.writes.push({ key, value, ttl });
    if (value === null) this.data.delete(this.k(c, key));
    else this.data.set(this.k(c, key), { value, expires: ttl ? this.clock.now + ttl * 1000 : null });
  }
}

/** Records calls; answers like the executor's tools would. */
class FakeRunner implements ToolRunner {
  readonly calls: ToolRun[] = [];
  failWith: Error | null = null;
  async run(req: ToolRun): Promise<ToolRunResult> {
    this.calls.push(req);
    if (this.failWith) throw this.failWith;
    switch (req.name) {
      case 'gerar_relatorio_diario':
        return {
          name: req.name,
          ok: true,
          result: { report_id: 'rel_20260114_095826_aaaaaa', text: 'relatório' },
          session_updates: [
            { key: 'active_report_id', value: 'rel_20260114_095826_aaaaaa', ttl_seconds: null },
            { key: 'last_report_id', value: 'rel_20260114_095826_aaaaaa', ttl_seconds: null },
          ],
        };
      case 'filtrar_relatorio':
        return {
          name: req.name,
          ok: true,
          result: { report_id: 'rel_20260114_095900_bbbbbb' },
          session_updates: [{ key: 'last_report_id', value: 'rel_20260114_095900_bbbbbb', ttl_seconds: null }],
        };
      case 'enviar_relatorio_email':
        if (req.args.previa)
          return {
            name: req.name,
            ok: true,
            result: {
              titulo: 'Briefing diário',
              destinatario: req.args.destinatario ?? 'cli1@exemplo.com.br',
              report_id: req.args.report_id,
              entrega_prevista: 'O e-mail sai em instantes.',
            },
            session_updates: [],
          };
        return { name: req.name, ok: true, result: { status: 'queued', text: 'Relatório colocado na fila de envio' }, session_updates: [] };
      default:
        return { name: req.name, ok: true, result: { args: req.args }, session_updates: [] };
    }
  }
}

function setup() {
  const clock = { now: Date.parse('2026-01-14T10:00:00Z') };
  const session = new FakeSession(clock);
  const runner = new FakeRunner();
  const gate = new ToolGate(policy, session, runner, () => new Date(clock.now));
  // The gate never reads the question: the planner hands it the arguments the message states.
  const ask = (tool: GateRequest['tool'], confirmation: GateRequest['confirmation'] = null, conversation_id = 'conv1') =>
    gate.invoke({ request_id: 'r1', client_id: 'cli1', conversation_id, tool, confirmation });
  return { clock, session, runner, gate, ask };
}

describe('ToolGate: injection', () => {
  it('runs the daily report and stores the session values it sets, with the policy TTLs', async () => {
    const { ask, session } = setup();
    const res = await ask({ name: 'gerar_relatorio_diario', args: {} });
    expect(res).toMatchObject({ status: 'ok', tool: { name: 'gerar_relatorio_diario', status: 'executed', injected: [] }, message: null });
    expect(session.writes).toEqual([
      { key: 'active_report_id', value: 'rel_20260114_095826_aaaaaa', ttl: 3600 },
      { key: 'last_report_id', value: 'rel_20260114_095826_aaaaaa', ttl: 3600 },
      // A follow-up of the briefing ("só logística") edits its filter.
      { key: 'last_call', value: { tool: 'filtrar_relatorio', args: {}, missing: [] }, ttl: 1800 },
    ]);
  });

  it('injects the active report id into a filter and keeps the filter the message states', async () => {
    const { ask, runner } = setup();
    await ask({ name: 'gerar_relatorio_diario', args: {} });
    const res = await ask({ name: 'filtrar_relatorio', args: { segmento: 'logistica' } });
    expect(res.status).toBe('ok');
    expect(res.tool).toEqual({
      name: 'filtrar_relatorio',
      args: { report_id: 'rel_20260114_095826_aaaaaa', segmento: 'logistica' },
      injected: [{ arg: 'report_id', value: 'rel_20260114_095826_aaaaaa', source: 'session:active_report_id' }],
      status: 'executed',
    });
    expect(runner.calls[1]).toMatchObject({ name: 'filtrar_relatorio', client_id: 'cli1', args: { report_id: 'rel_20260114_095826_aaaaaa' } });
  });

  it('never overrides an explicit report id', async () => {
    const { ask } = setup();
    await ask({ name: 'gerar_relatorio_diario', args: {} });
    const fromText = await ask({ name: 'filtrar_relatorio', args: { report_id: 'rel_20260101_080000_cccccc', secao: 'proventos' } });
    expect(fromText.tool).toMatchObject({ args: { report_id: 'rel_20260101_080000_cccccc', secao: 'proventos' }, injected: [] });
    const fromCall = await ask({ name: 'filtrar_relatorio', args: { report_id: 'rel_20260101_080000_dddddd', secao: 'proventos' } });
    expect(fromCall.tool).toMatchObject({ args: { report_id: 'rel_20260101_080000_dddddd' }, injected: [] });
  });

  it('explains in pt-BR when there is no active report, without running anything', async () => {
    const { ask, runner } = setup();
    const res = await ask({ name: 'filtrar_relatorio', args: {} });
    expect(res).toMatchObject({ status: 'error', tool: { status: 'rejected' }, result: null });
    expect(res.message).toMatch(/Nenhum relatório ativo\. Gere um relatório primeiro/);
    expect(runner.calls).toHaveLength(0);
  });

  it('an expired active report is not injected', async () => {
    const { ask, clock } = setup();
    await ask({ name: 'gerar_relatorio_diario', args: {} });
    clock.now += 3601 * 1000;
    expect((await ask({ name: 'filtrar_relatorio', args: {} })).status).toBe('error');
  });

  it('asks how to filter when no filter is stated', async () => {
    const { ask } = setup();
    await ask({ name: 'gerar_relatorio_diario', args: {} });
    const res = await ask({ name: 'filtrar_relatorio', args: {} });
    expect(res).toMatchObject({ status: 'needs_clarification', tool: { status: 'needs_argument' } });
    expect(res.message).toMatch(/Diga como quer filtrar/);
  });

  it('rejects explicit values of the wrong type and unknown tools', async () => {
    const { ask } = setup();
    const bad = await ask({ name: 'calcular_financas', args: { operacao: 'juros_compostos', prazo_meses: 'muitos' } });
    expect(bad).toMatchObject({ status: 'error', tool: { status: 'rejected' } });
    expect(bad.message).toMatch(/prazo_meses.*número inteiro/);
    const unknown = await ask({ name: 'apagar_tudo', args: {} });
    expect(unknown).toMatchObject({ status: 'error', tool: null });
    expect(unknown.message).toMatch(/apagar_tudo/);
    expect((await ask(null)).status).toBe('error');
  });

  it('passes finance arguments to the executor as exact decimal strings', async () => {
    const { ask, runner } = setup();
    const args = { operacao: 'juros_compostos', valor_inicial: '10000', taxa: '1', taxa_periodo: 'mes', taxa_periodo_informado: true, prazo_meses: 24, prazo_unidade: 'meses' };
    const res = await ask({ name: 'calcular_financas', args });
    expect(res.status).toBe('ok');
    expect(runner.calls[0].args).toEqual({
      operacao: 'juros_compostos',
      valor_inicial: '10000',
      taxa: '1',
      taxa_periodo: 'mes',
      taxa_periodo_informado: true,
      prazo_meses: 24,
      prazo_unidade: 'meses',
    });
  });
});

describe('ToolGate: cash flows', () => {
  it('takes the flows of an NPV call as a decimal list, and rejects a malformed list', async () => {
    const { ask, runner } = setup();
    expect((await ask({ name: 'calcular_financas', args: { operacao: 'vpl', fluxos: [-1000, 500, 700], taxa: '10', taxa_periodo: 'ano' } })).status).toBe('ok');
    expect(runner.calls[0].args).toMatchObject({ operacao: 'vpl', fluxos: ['-1000', '500', '700'], taxa: '10' });
    const bad = await ask({ name: 'calcular_financas', args: { operacao: 'tir', fluxos: ['-1000', 'muito'] } });
    expect(bad).toMatchObject({ status: 'error', tool: { status: 'rejected' } });
    expect(bad.message).toMatch(/fluxos.*lista de números/);
  });

  it('refuses a number in scientific notation, saying how to write it', async () => {
    const { ask, runner } = setup();
    const amount = await ask({ name: 'calcular_financas', args: { operacao: 'juros_compostos', valor_inicial: '1e300', taxa: '1', prazo_meses: 12 } });
    expect(amount).toMatchObject({ status: 'error', tool: { status: 'rejected' } });
    expect(amount.message).toMatch(/valor_inicial.*"1e300" está em notação científica.*1\.000\.000/);
    const flows = await ask({ name: 'calcular_financas', args: { operacao: 'tir', fluxos: ['-1000', '1e3', '400'] } });
    expect(flows.message).toMatch(/fluxos.*"1e3" está em notação científica/);
    expect(runner.calls).toEqual([]);
  });
});

describe('ToolGate: confirmation of sensitive actions', () => {
  async function askToSend() {
    const s = setup();
    await s.ask({ name: 'gerar_relatorio_diario', args: {} });
    const res = await s.ask({ name: 'enviar_relatorio_email', args: {} });
    return { ...s, res };
  }

  it('asks for confirmation with a preview, running only the preview', async () => {
    const { res, runner, session } = await askToSend();
    expect(res.status).toBe('confirmation_required');
    expect(res.message).toBe('Posso enviar o relatório "Briefing diário" para cli1@exemplo.com.br? O e-mail sai em instantes. Responda sim ou não.');
    expect(res.tool).toMatchObject({
      status: 'confirmation_required',
      args: { report_id: 'rel_20260114_095826_aaaaaa', destinatario: 'cli1@exemplo.com.br' },
      injected: [{ arg: 'report_id', source: 'session:last_report_id' }],
    });
    expect(runner.calls.at(-1)!.args).toMatchObject({ previa: true });
    expect(session.writes.at(-1)).toMatchObject({ key: 'pending_action', ttl: 600 });
  });

  it('"sim" sends exactly what was previewed and clears the pending action', async () => {
    const { ask, runner, session } = await askToSend();
    const res = await ask(null, 'yes');
    expect(res).toMatchObject({ status: 'ok', tool: { name: 'enviar_relatorio_email', status: 'executed' }, result: { status: 'queued' } });
    // The preview's request id travels along so the executor can deduplicate a repeated "sim".
    expect(runner.calls.at(-1)!.args).toEqual({ report_id: 'rel_20260114_095826_aaaaaa', destinatario: 'cli1@exemplo.com.br', confirmacao_id: 'r1' });
    expect(await session.get({ client_id: 'cli1', conversation_id: 'conv1' }, ['pending_action'])).toEqual({});
    // A second "sim" finds nothing to confirm and sends nothing.
    const again = await ask(null, 'yes');
    expect(again.status).toBe('error');
    expect(again.message).toMatch(/Não há nenhuma ação aguardando/);
    expect(runner.calls.filter((c) => c.name === 'enviar_relatorio_email' && !c.args.previa)).toHaveLength(1);
  });

  it('an outage while "sim" runs keeps the confirmation (same idempotency key) until it expires', async () => {
    const { ask, runner, clock } = await askToSend();
    runner.failWith = new CotaError('UNAVAILABLE', 'no service is answering');
    await expect(ask(null, 'yes')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    runner.failWith = new CotaError('TIMEOUT', 'executor did not answer');
    await expect(ask(null, 'yes')).rejects.toMatchObject({ code: 'TIMEOUT' });
    runner.failWith = null;
    clock.now += 60_000;
    const res = await ask(null, 'yes');
    expect(res).toMatchObject({ status: 'ok', tool: { name: 'enviar_relatorio_email', status: 'executed' } });
    const sends = runner.calls.filter((c) => c.name === 'enviar_relatorio_email' && !c.args.previa);
    expect(sends.map((c) => c.args.confirmacao_id)).toEqual(['r1', 'r1', 'r1']);
  });

  it('a restored confirmation keeps what is left of its 10 minutes, not a fresh TTL', async () => {
    const { ask, runner, clock } = await askToSend();
    clock.now += 500_000;
    runner.failWith = new CotaError('UNAVAILABLE', 'no service is answering');
    await expect(ask(null, 'yes')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    runner.failWith = null;
    clock.now += 101_000;
    expect((await ask(null, 'yes')).message).toMatch(/Não há nenhuma ação aguardando/);
  });

  it('"não" cancels without sending', async () => {
    const { ask, runner } = await askToSend();
    const res = await ask(null, 'no');
    expect(res).toMatchObject({ status: 'ok', tool: { status: 'cancelled' } });
    expect(res.message).toMatch(/cancelei o envio do relatório por e-mail/);
    expect(runner.calls.filter((c) => c.name === 'enviar_relatorio_email' && !c.args.previa)).toHaveLength(0);
  });

  it('a confirmation after the TTL, or in another conversation, finds nothing', async () => {
    const { ask, clock } = await askToSend();
    expect((await ask(null, 'yes', 'other-conv')).status).toBe('error');
    clock.now += 601 * 1000;
    expect((await ask(null, 'yes')).status).toBe('error');
  });

  it('an address the message states is used as the recipient', async () => {
    const s = setup();
    await s.ask({ name: 'gerar_relatorio_diario', args: {} });
    const res = await s.ask({ name: 'enviar_relatorio_email', args: { destinatario: 'maria@exemplo.com' } });
    expect(res.message).toMatch(/para maria@exemplo\.com\?/);
  });

  it('tool domain errors become pt-BR answers; outages propagate', async () => {
    const s = setup();
    s.runner.failWith = new CotaError('NOT_FOUND', 'Relatório não encontrado.');
    const res = await s.ask({ name: 'filtrar_relatorio', args: { report_id: 'rel_20260101_080000_cccccc', secao: 'proventos' } });
    expect(res).toMatchObject({ status: 'error', message: 'Relatório não encontrado.', tool: { status: 'failed' } });
    s.runner.failWith = new CotaError('UNAVAILABLE', 'no service is answering');
    await expect(s.ask({ name: 'gerar_relatorio_diario', args: {} })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});

describe('ToolGate: missing arguments and follow-ups', () => {
  it('asks for exactly the missing argument, keeps the call, and the next message completes it', async () => {
    const { gate, runner, session } = setup();
    const call = (args: Record<string, unknown>, continuation: 'none' | 'complete' = 'none') =>
      gate.invoke({ request_id: 'r1', client_id: 'cli1', conversation_id: 'c-missing', tool: { name: 'calcular_financas', args, continuation }, confirmation: null });
    const first = await call({ operacao: 'tir' });
    expect(first).toMatchObject({ status: 'needs_clarification', tool: { name: 'calcular_financas', status: 'needs_argument', args: { operacao: 'tir' } } });
    expect(first.message).toMatch(/fluxos de caixa/);
    expect(runner.calls).toHaveLength(0);

    const nothing = await call({}, 'complete');
    expect(nothing.message).toMatch(/^Ainda preciso de uma informação para continuar\. Quais são os fluxos/);

    const done = await call({ fluxos: ['-1000', '300', '400', '500'] }, 'complete');
    expect(done).toMatchObject({ status: 'ok', tool: { status: 'executed', args: { operacao: 'tir', fluxos: ['-1000', '300', '400', '500'] } } });
    expect(runner.calls).toHaveLength(1);
    // Completed: no call waits any more, so the planner has nothing to continue.
    expect(await session.get({ client_id: 'cli1', conversation_id: 'c-missing' }, ['pending_call'])).toEqual({});
  });

  it('a required argument is waived when every argument of one of its sets is stated (a sale told in numbers needs no fund)', async () => {
    const { ask } = setup();
    const sale = (args: Record<string, unknown>) => ask({ name: 'simular_ir_venda', args, continuation: 'none' }, null, 'c-sale');
    expect(await sale({ quantidade: 200, preco_compra: '98', preco_venda: '105' })).toMatchObject({ status: 'ok', tool: { status: 'executed' } });
    expect(await sale({ lucro: '3500' })).toMatchObject({ status: 'ok', tool: { status: 'executed' } });
    // (one price missing: the fund is asked for, as always)
    expect(await sale({ quantidade: 200, preco_venda: '105' })).toMatchObject({ status: 'needs_clarification', tool: { status: 'needs_argument' } });
  });

  it('an edit changes what the message says and keeps the rest of the last call', async () => {
    const { gate, runner } = setup();
    const call = (args: Record<string, unknown>, continuation: 'none' | 'edit', own = false) =>
      gate.invoke({ request_id: 'r1', client_id: 'cli1', conversation_id: 'c-edit', tool: { name: 'calcular_financas', args, continuation, own }, confirmation: null });
    await call({ operacao: 'juros_compostos', valor_inicial: '10000', taxa: '1', taxa_periodo: 'mes', prazo_meses: 24, prazo_unidade: 'meses' }, 'none', true);
    const edited = await call({ prazo_meses: 36, prazo_unidade: 'meses' }, 'edit');
    expect(edited.tool).toMatchObject({ status: 'executed', args: { operacao: 'juros_compostos', valor_inicial: '10000', taxa: '1', prazo_meses: 36 } });
    // A whole new request is taken as such, not merged into the last call.
    const fresh = await call({ operacao: 'tir', fluxos: ['-500', '200', '200', '200'] }, 'edit', true);
    expect(fresh.tool).toMatchObject({ args: { operacao: 'tir', fluxos: ['-500', '200', '200', '200'] } });
    expect(fresh.tool?.args).not.toHaveProperty('valor_inicial');
    expect(runner.calls).toHaveLength(3);
  });

  it('a fund tool takes the fund of the conversation when the message names none', async () => {
    const { gate } = setup();
    const res = await gate.invoke({
      request_id: 'r1',
      client_id: 'cli1',
      conversation_id: 'c-fund',
      tool: { name: 'numero_magico', args: {}, context_ticker: 'MXRF11' },
      confirmation: null,
    });
    expect(res.tool).toMatchObject({ status: 'executed', args: { ticker: 'MXRF11' }, injected: [{ arg: 'ticker', value: 'MXRF11', source: 'context:last_ticker' }] });
  });
});
