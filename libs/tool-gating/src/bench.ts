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
 * fakes so only injection and confirmation bookkeeping are timed. Target: a gate decision under 0.5 ms.
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
      name: 'tool-gating.invoke(filtrar_relatorio with injection)',
      targetMeanMs: 0.5,
      run: async () =>
        void (await gate.invoke({
          ...caller,
          tool: { name: 'filtrar_relatorio', args: { segmento: 'logistica' }, continuation: 'none', own: true, context_ticker: null },
          confirmation: null,
        })),
    },
    {
      name: 'tool-gating.invoke(e-mail confirmation + "não")',
      targetMeanMs: 0.5,
      run: async () => {
        await gate.invoke({ ...caller, tool: { name: 'enviar_relatorio_email', args: {}, continuation: 'none', own: true, context_ticker: null }, confirmation: null });
        await gate.invoke({ ...caller, tool: null, confirmation: 'no' });
      },
    },
  ];
}
