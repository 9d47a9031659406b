import { cliCommand, fraction, oneOf, parseCommandLine } from './args';

const command = () =>
  cliCommand('npm run exemplo --', 'Um exemplo.')
    .argument('[serviço]', 'um serviço', oneOf(['planner', 'rag'] as const, 'Serviço'))
    .option('--min <fração>', 'uma fração', fraction)
    .option('-v, --verbose', 'detalhes');

describe('CLI command lines (commander)', () => {
  it('reads options in either form and the arguments', () => {
    expect(parseCommandLine(command(), ['rag', '--min=0.5', '-v'])).toEqual({ opts: { min: 0.5, verbose: true }, args: ['rag'] });
    expect(parseCommandLine(command(), ['--min', '1'])).toEqual({ opts: { min: 1 }, args: [] });
  });

  it.each([
    [['--nope'], /^argumento desconhecido '--nope'\. Uso: npm run exemplo -- /],
    [['--min'], /^--min precisa de um valor\. Uso:/],
    [['--min', '2'], /^--min deve ser uma fração entre 0 e 1/],
    [['executor'], /^Serviço desconhecido 'executor'\. Use um de: planner, rag\./],
    [['rag', 'planner'], /^argumento a mais/],
  ])('refuses %j in Portuguese, with the usage', (argv, message) => {
    const parsed = parseCommandLine(command(), argv);
    expect(parsed).toEqual({ error: expect.stringMatching(message) });
    expect((parsed as { error: string }).error).toContain('Uso: npm run exemplo --');
  });

  it('prints the help on --help and says so', () => {
    const out: string[] = [];
    const cmd = command().configureOutput({ writeOut: (s) => void out.push(s), writeErr: () => undefined });
    expect(parseCommandLine(cmd, ['--help'])).toEqual({ help: true });
    expect(out.join('')).toMatch(/npm run exemplo --[\s\S]*--min <fração>[\s\S]*mostra esta ajuda/);
  });
});
