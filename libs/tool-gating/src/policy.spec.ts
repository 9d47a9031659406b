import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolicyError, policiesDir } from '@cota/config';
import { loadToolGatePolicy } from './policy';

const shipped = readFileSync(join(policiesDir(), 'tool_gate.yaml'), 'utf8');

function loadVariant(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cota-toolgate-'));
  writeFileSync(join(dir, 'tool_gate.yaml'), text);
  return () => loadToolGatePolicy(dir);
}

describe('tool_gate.yaml', () => {
  it('the shipped policy loads and declares every tool', () => {
    const p = loadToolGatePolicy();
    expect(Object.keys(p.tools).sort()).toEqual([
      'apurar_ir_vendas',
      'calcular_financas',
      'calendario_proventos',
      'consultar_transacoes',
      'criar_alerta',
      'enviar_relatorio_email',
      'filtrar_relatorio',
      'gerar_relatorio_diario',
      'importar_extrato',
      'listar_alertas',
      'numero_magico',
      'pausar_alerta',
      'reativar_alerta',
      'registrar_operacao',
      'registrar_transacao',
      'relatorio_ir_anual',
      'remover_alerta',
      'rentabilidade_carteira',
      'simular_ir_venda',
    ]);
    expect(p.tools.criar_alerta.sensitive).toBe(true);
    expect(p.tools.enviar_relatorio_email.sensitive).toBe(true);
    expect(p.tools.importar_extrato.sensitive).toBe(true);
    expect(p.tools.registrar_operacao.sensitive).toBe(true);
    expect(p.session.keys.pending_action.ttl_seconds).toBe(600);
  });

  it('an injection from an undeclared session key stops start-up naming the field', () => {
    const bad = loadVariant(shipped.replace('inject_from: [active_report_id]', 'inject_from: [relatorio_atual]'));
    expect(bad).toThrow(PolicyError);
    expect(bad).toThrow(/tool_gate\.yaml: field 'tools\.filtrar_relatorio\.args\.report_id\.inject_from\.0'/);
  });

  it('a sensitive tool without confirmation text is refused', () => {
    const bad = loadVariant(shipped.replace(/    confirmation:\n(      .*\n)+/, ''));
    expect(bad).toThrow(/field 'tools\.enviar_relatorio_email\.confirmation'/);
  });

  it('an unknown argument type is refused', () => {
    expect(loadVariant(shipped.replace('destinatario: { type: email }', 'destinatario: { type: mail }'))).toThrow(
      /field 'tools\.enviar_relatorio_email\.args\.destinatario\.type'/,
    );
  });
});
