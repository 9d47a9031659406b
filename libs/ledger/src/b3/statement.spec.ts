import ExcelJS from 'exceljs';
import { entryIds } from '../entry-id';
import { previewText } from '../preview';
import { parseStatement } from './statement';
import { readTable, UnreadableFileError } from './table';

const csv = (lines: string[]) => Buffer.from(lines.join('\n'), 'utf8');

describe('B3 statements', () => {
  it('reads a Negociação .xlsx: dates, Compra/Venda, the fractional market code, numbers', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Resumo').addRow(['não é o extrato']);
    const ws = wb.addWorksheet('Negociação');
    ws.addRow(['Data do Negócio', 'Tipo de Movimentação', 'Mercado', 'Prazo/Vencimento', 'Instituição', 'Código de Negociação', 'Quantidade', 'Preço', 'Valor']);
    ws.addRow([new Date(Date.UTC(2024, 0, 10)), 'Compra', 'Mercado à Vista', '-', 'XP', 'HGLG11', 100, 150.5, 15050]);
    ws.addRow(['15/02/2024', 'Venda', 'Mercado Fracionário', '-', 'XP', 'HGLG11F', 3, 'R$ 1.160,25', '3.480,75']);
    const parsed = parseStatement(await readTable('negociacao.xlsx', Buffer.from(await wb.xlsx.writeBuffer())));
    expect(parsed.statement).toBe('negociacao');
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries).toEqual([
      { kind: 'buy', date: '2024-01-10', ticker: 'HGLG11', quantity: '100', price: '150.5', amount: '15050.00', fees: 0, line: 2, institution: 'XP' },
      { kind: 'sell', date: '2024-02-15', ticker: 'HGLG11', quantity: '3', price: '1160.25', amount: '3480.75', fees: 0, line: 3, institution: 'XP' },
    ]);
  });

  it('reads a Movimentação .csv in latin-1 with semicolons: income, amortization, splits; lists what it leaves out', async () => {
    const text = [
      'Entrada/Saída;Data;Movimentação;Produto;Instituição;Quantidade;Preço unitário;Valor da Operação',
      'Credito;14/03/2024;Rendimento;KNRI11 - KINEA RENDA IMOBILIARIA FII;XP;10;1,00;10,00',
      'Credito;20/03/2024;Amortização;KNRI11 - KINEA RENDA IMOBILIARIA FII;XP;10;0,50;5,00',
      'Credito;10/04/2024;Desdobramento;KNRI11 - KINEA RENDA IMOBILIARIA FII;XP;90;-;-',
      'Debito;10/05/2024;Grupamento;KNRI11 - KINEA RENDA IMOBILIARIA FII;XP;50;-;-',
      'Credito;11/05/2024;Dividendo;PETR4 - PETROBRAS;XP;10;1,00;10,00',
      'Credito;12/05/2024;Juros Sobre Capital Próprio;ITUB4 - ITAU;XP;10;0,10;1,00',
      'Credito;13/05/2024;Atualização;KNRI11 - KINEA RENDA IMOBILIARIA FII;XP;10;-;-',
    ].join('\r\n');
    const parsed = parseStatement(await readTable('mov.csv', Buffer.from(text, 'latin1')));
    expect(parsed.statement).toBe('movimentacao');
    expect(parsed.entries.map((e) => [e.kind, e.date, e.quantity, e.amount])).toEqual([
      ['income', '2024-03-14', '10', '10.00'],
      ['amortization', '2024-03-20', '10', '5.00'],
      ['split', '2024-04-10', '90', 0],
      ['reverse_split', '2024-05-10', '50', 0],
    ]);
    expect(parsed.ignored).toEqual([
      { line: 6, reason: 'PETR4 não é cota de fundo imobiliário' },
      { line: 7, reason: 'juros sobre capital próprio não são rendimento de FII' },
      { line: 8, reason: 'movimentação "Atualização" não altera custo nem renda' },
    ]);
  });

  it('reports every bad row by line and reason', async () => {
    const parsed = parseStatement(
      await readTable(
        'n.csv',
        csv([
          'Data do Negócio,Tipo de Movimentação,Mercado,Prazo/Vencimento,Instituição,Código de Negociação,Quantidade,Preço,Valor',
          '10/01/2024,Compra,Mercado à Vista,-,XP,HGLG11,10,"150,00","1500,00"',
          '10/13/2024,Compra,Mercado à Vista,-,XP,HGLG11,10,"150,00","1500,00"',
          '11/01/2024,Doação,Mercado à Vista,-,XP,HGLG11,10,"150,00","1500,00"',
          '12/01/2024,Compra,Mercado à Vista,-,XP,HGLG11,"2,5","150,00","375,00"',
          '13/01/2024,Compra,Mercado à Vista,-,XP,HGLG11,10,0,0',
          '14/01/2024,Compra,Mercado à Vista,-,XP,,10,"150,00","1500,00"',
        ]),
      ),
    );
    expect(parsed.entries).toHaveLength(1);
    expect(parsed.errors).toEqual([
      { line: 3, reason: '"Data do Negócio" não é uma data válida (10/13/2024)' },
      { line: 4, reason: 'tipo de movimentação "Doação" desconhecido (esperado Compra ou Venda)' },
      { line: 5, reason: '"Quantidade" precisa ser um número inteiro de cotas (2,5)' },
      { line: 6, reason: '"Preço" precisa ser um número positivo (0)' },
      { line: 7, reason: '"Código de Negociação" vazio' },
    ]);
  });

  it('refuses what is not a spreadsheet, and a sheet without the statement header', async () => {
    await expect(readTable('x.xlsx', Buffer.from('not a zip'))).rejects.toBeInstanceOf(UnreadableFileError);
    const parsed = parseStatement(await readTable('x.csv', csv(['a;b', '1;2'])));
    expect(parsed.errors[0].reason).toContain('não encontrei o cabeçalho do extrato da B3');
  });

  it('gives equal rows of one file different keys and the same rows of two files the same keys', () => {
    const row = { kind: 'buy' as const, date: '2024-01-10', ticker: 'HGLG11', quantity: '10', price: '150', amount: '1500.00', fees: 0, line: 2, institution: 'XP' };
    const [a, b] = entryIds([row, { ...row, line: 3 }]);
    expect(a).not.toBe(b);
    expect(entryIds([{ ...row, line: 9 }])[0]).toBe(a);
  });

  it('previews in Portuguese', () => {
    expect(
      previewText({
        statement: 'negociacao',
        counts: { buy: 36, sell: 1, income: 112, amortization: 0, split: 0, reverse_split: 0 },
        funds: ['HGLG11', 'KNRI11'],
        first_date: '2021-03-05',
        last_date: '2025-10-15',
        already_in_ledger: 0,
        ignored: [{ line: 4, reason: 'PETR4 não é cota de fundo imobiliário' }],
      }),
    ).toBe(
      'Extrato de Negociação da B3: 37 negociações (36 compras, 1 venda) e 112 rendimentos de 2 fundos (HGLG11, KNRI11), de 03/2021 a 10/2025; 1 linha ignorada: linha 4 (PETR4 não é cota de fundo imobiliário).',
    );
  });
});
