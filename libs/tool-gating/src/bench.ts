import { extractArgs } from './extract';
import { loadToolGatePolicy } from './policy';
import { SessionStore, ToolRunner } from './ports';
import { ToolGate } from './tool-gate';

/** Same shape as cli/bench-harness.ts `Benchmark` (libraries do not import the CLI). */
export interface Benchmark {
  name: string;
  run: () => Promise<void> | void;
  targetMeanMs?: number;
}

/**
 * Benchmarks of the gate's own work (run by cli/bench.ts), bus and executor replaced by in-memory
 * fakes so only extraction, injection and confirmation bookkeeping are timed.
 * Targets: argument extraction under 0.2 ms; a full gate decision under 0.5 ms.
 */
export function toolGatingBenchmarks(): Benchmark[] {
  const policy = loadToolGatePolicy();
  const values = new Map<string, unknown>([['active_report_id', 'rel_20260114_095826_aaaaaa']]);
  const session: SessionStore = {
    get: async (_c, keys) => Object.fromEntries(keys.filter((k) => values.has(k)).map((k) => [k, values.get(k)])),
    set: async (_c, key, value) => void (value === null ? values.delete(key) : values.set(key, value)),
  };
  const runner: ToolRunner = { run: async (r) => ({ name: r.name, ok: true, result: { titulo: 'x', destinatario: 'a@b.com' }, session_updates: [] }) };
  const gate = new ToolGate(policy, session, runner);
  const caller = { request_id: 'bench', client_id: 'bench', conversation_id: 'bench' };
  return [
    {
      name: 'tool-gating.extract(finance question)',
      targetMeanMs: 0.2,
      run: () => void extractArgs('Se eu investir R$ 5 mil e aportar R$ 500 por mês a 0,8% a.m. durante 10 anos, quanto terei?', ['finance'], policy),
    },
    {
      name: 'tool-gating.invoke(filtrar_relatorio with injection)',
      targetMeanMs: 0.5,
      run: async () => void (await gate.invoke({ ...caller, question: 'filtre só os de logística', tool: { name: 'filtrar_relatorio', args: {} }, confirmation: null })),
    },
    {
      name: 'tool-gating.invoke(e-mail confirmation + "não")',
      targetMeanMs: 0.5,
      run: async () => {
        await gate.invoke({ ...caller, question: 'manda por e-mail', tool: { name: 'enviar_relatorio_email', args: {} }, confirmation: null });
        await gate.invoke({ ...caller, question: 'não', tool: null, confirmation: 'no' });
      },
    },
  ];
}
