import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { parse } from 'yaml';
import { ZodTypeAny, z } from 'zod';
import { policiesDir, repoRoot } from './paths';

/** A policy file that cannot be used: the service must not start with a silent default. */
export class PolicyError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    detail: string,
  ) {
    super(`policy ${file}: field '${field}' ${detail}`);
    this.name = 'PolicyError';
  }
}

/**
 * Parsed files by path, with the version they were parsed from: the seven services of one process
 * read the same policies (each entity file eight times), and parsing was most of a start's CPU.
 * Each caller gets its own copy; a file changed on disk is parsed again.
 */
const parsedFiles = new Map<string, { version: string; value: unknown }>();

function readYaml(path: string): unknown {
  const shown = relative(repoRoot(), path) || path;
  let text: string;
  let version: string;
  try {
    const stat = statSync(path);
    version = `${stat.mtimeMs}:${stat.size}`;
    const known = parsedFiles.get(path);
    if (known?.version === version) return structuredClone(known.value);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new PolicyError(shown, '(file)', `cannot be read: ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch (e) {
    throw new PolicyError(shown, '(yaml)', `is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  parsedFiles.set(path, { version, value });
  return structuredClone(value);
}

/** Parses and validates one YAML file; errors name the file and the field. */
export function loadYamlFile<S extends ZodTypeAny>(path: string, schema: S): z.infer<S> {
  const shown = relative(repoRoot(), path) || path;
  const parsed = schema.safeParse(readYaml(path));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PolicyError(shown, issue.path.join('.') || '(root)', issue.message);
  }
  return parsed.data;
}

/** Loads `policies/<name>.yaml`. Call once at start-up, never per request. */
export function loadPolicy<S extends ZodTypeAny>(name: string, schema: S, dir = policiesDir()): z.infer<S> {
  return loadYamlFile(join(dir, `${name}.yaml`), schema);
}

/** Loads every `*.yaml` of `policies/<folder>/`, keyed by file name without extension. */
export function loadPolicyFolder<S extends ZodTypeAny>(folder: string, schema: S, dir = policiesDir()): Record<string, z.infer<S>> {
  const path = join(dir, folder);
  const out: Record<string, z.infer<S>> = {};
  for (const f of readdirSync(path)
    .filter((n) => n.endsWith('.yaml'))
    .sort()) {
    out[basename(f, '.yaml')] = loadYamlFile(join(path, f), schema);
  }
  return out;
}
