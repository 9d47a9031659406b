import { toolContinuation } from './tool-continuation';

type Plan = Parameters<typeof toolContinuation>[0];
type Peek = NonNullable<Parameters<typeof toolContinuation>[1]>;

const plan = (over: Partial<Plan>): Plan =>
  ({
    kind: 'unknown',
    intent: 'unknown',
    entity: null,
    elliptic: false,
    tickers_in_text: [],
    tool: null,
    confirmation: null,
    planner: { accepted: false },
    ...over,
  }) as Plan;

const peek = (over: Partial<Peek>): Peek =>
  ({
    last_entity: null,
    last_tickers: [],
    last_filters: {},
    last_question: null,
    last_params: null,
    last_listed_tickers: [],
    pending_call: null,
    last_call: null,
    last_kind: null,
    last_reference: null,
    ...over,
  }) as Peek;

describe('toolContinuation', () => {
  it('a weak message completes the call waiting for an argument; a confident question only tries to', () => {
    expect(toolContinuation(plan({}), peek({ pending_call: { tool: 'calcular_financas', args: {}, missing: [] } }), false)).toEqual({
      mode: 'complete',
      tool: 'calcular_financas',
    });
    expect(
      toolContinuation(
        plan({ kind: 'entity', planner: { accepted: true } as Plan['planner'] }),
        peek({ pending_call: { tool: 'calcular_financas', args: {}, missing: [] } }),
        false,
      ),
    ).toEqual({
      mode: 'try_complete',
      tool: 'calcular_financas',
    });
  });

  it('another tool or a yes/no is never read as the missing argument', () => {
    expect(
      toolContinuation(
        plan({ kind: 'tool', tool: { name: 'gerar_relatorio_diario', args: {} } }),
        peek({ pending_call: { tool: 'calcular_financas', args: {}, missing: [] } }),
        false,
      ),
    ).toBeNull();
    expect(toolContinuation(plan({ kind: 'confirmation' }), peek({ pending_call: { tool: 'calcular_financas', args: {}, missing: [] } }), false)).toBeNull();
  });

  it('edits the tool that just ran when the message opens like an edit of it', () => {
    const after = peek({ last_call: { tool: 'filtrar_relatorio', args: {}, missing: [] }, last_kind: 'tool' });
    expect(toolContinuation(plan({ kind: 'entity', planner: { accepted: true } as Plan['planner'] }), after, true)).toEqual({
      mode: 'edit',
      tool: 'filtrar_relatorio',
    });
    expect(toolContinuation(plan({}), after, true)).toEqual({ mode: 'edit', tool: 'filtrar_relatorio' });
  });

  it('does not edit a tool when the last answer was not a tool, nor without one', () => {
    expect(toolContinuation(plan({}), peek({ last_call: { tool: 'calcular_financas', args: {}, missing: [] }, last_kind: 'entity' }), true)).toBeNull();
    expect(toolContinuation(plan({}), null, true)).toBeNull();
  });
});
