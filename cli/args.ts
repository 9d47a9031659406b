import { Command, CommanderError, InvalidArgumentError } from 'commander';

export { InvalidArgumentError };

/**
 * A CLI's command line, parsed by commander: `name` as the operator types it (`npm run erase --`),
 * `--help` in Portuguese, and errors returned (never a process exit) so callers and tests decide.
 */
export function cliCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .helpOption('-h, --help', 'mostra esta ajuda')
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
}

/** What a command line asked for: its options and arguments, the help (already printed), or a pt-BR error. */
export type Parsed<O> = { opts: O; args: string[] } | { help: true } | { error: string };

/** commander's reasons, in the operator's language. */
function reasonOf(e: CommanderError): string {
  const option = /option '([^' ]+)/.exec(e.message)?.[1];
  switch (e.code) {
    case 'commander.unknownOption':
      return `argumento desconhecido '${/unknown option '([^']+)'/.exec(e.message)?.[1] ?? ''}'.`;
    case 'commander.optionMissingArgument':
      return `${option} precisa de um valor.`;
    case 'commander.invalidArgument':
      return /is invalid[^.]*\. (.*)$/s.exec(e.message)?.[1] ?? `valor inválido para ${option ?? 'o argumento'}.`;
    case 'commander.excessArguments':
      return `argumento a mais: ${e.message.replace(/^error: /, '')}`;
    case 'commander.missingArgument':
      return `falta um argumento: ${/argument '([^']+)'/.exec(e.message)?.[1] ?? ''}.`;
    default:
      return e.message.replace(/^error: /, '');
  }
}

/** Parses `argv` (the arguments after the script) with `cmd`; the usage line follows every error. */
export function parseCommandLine<O>(cmd: Command, argv: string[]): Parsed<O> {
  try {
    cmd.parse(argv, { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return { help: true };
    return { error: `${reasonOf(e)} ${usageOf(cmd)}` };
  }
  return { opts: cmd.opts<O & object>() as O, args: cmd.args };
}

/** `Uso: <name> <usage>`. */
export function usageOf(cmd: Command): string {
  return `Uso: ${cmd.name()} ${cmd.usage().replace('[options]', '[opções]')}`;
}

/** An option value that must be a fraction between 0 and 1 (`--min 0.97`). */
export function fraction(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('--min deve ser uma fração entre 0 e 1 (ex.: 0.97).');
  return n;
}

/** For entry points: the parsed command line; after `--help` the process ends (0), after an error it says why and ends (2). */
export function commandLineOrExit<O>(cmd: Command, argv: string[] = process.argv.slice(2)): { opts: O; args: string[] } {
  const parsed = parseCommandLine<O>(cmd, argv);
  if ('help' in parsed) process.exit(0);
  if ('error' in parsed) {
    process.stderr.write(`${parsed.error}\n`);
    process.exit(2);
  }
  return parsed;
}

/** An argument that must be one of `choices` (a service, a feed...). */
export function oneOf<T extends string>(choices: readonly T[], what: string): (value: string) => T {
  return (value) => {
    if (!(choices as readonly string[]).includes(value)) throw new InvalidArgumentError(`${what} desconhecido '${value}'. Use um de: ${choices.join(', ')}.`);
    return value as T;
  };
}
