import { CotaError, HealthSubjects } from '@cota/contracts';
import { TransportSubscription } from '@cota/messaging';
import { pingDatabase } from './database';
import type { FactoryProvider, InjectionToken } from '@nestjs/common';
import { Infra, INFRA, onOpenBus } from './infra';
import { createLogger } from './logger';
import { pingRedis } from './redis';

/** Resolves when the dependency is usable; a string it resolves with is a note the probe shows with `ok: true`. */
export type HealthCheck = () => Promise<void | string>;

/** A readiness problem a service states itself: its message is for the open probe (pt-BR, no internals). */
export class HealthProblem extends Error {}

/** A check that did not answer in time. */
class NoAnswer extends Error {}

export interface CheckResult {
  ok: boolean;
  detail?: string;
}

/**
 * What the open probe says of a failed check: the service's own words (HealthProblem), `sem resposta`
 * when it did not answer in time, else `indisponível`. Never a client library's message (it names
 * hosts, ports and internals); that one goes to the log.
 */
export function publicDetail(e: unknown): string {
  if (e instanceof HealthProblem) return e.message;
  if (e instanceof NoAnswer || CotaError.is(e, 'TIMEOUT')) return 'sem resposta';
  return 'indisponível';
}

const log = createLogger('health');
/** The last logged failure of each check, so a failing probe logs once per change, not at every probe. */
const lastLogged = new Map<string, string>();

function logFailure(name: string, e: unknown): void {
  const message = e instanceof Error ? e.message : String(e);
  if (lastLogged.get(name) === message) return;
  lastLogged.set(name, message);
  log.warn({ check: name, error: message }, 'readiness check failed');
}

/** A service's own readiness checks (e.g. "fund list loaded"), provided by its module; served with the standard ones. */
export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

const ownChecks = new WeakMap<Infra, Record<string, HealthCheck>>();

/**
 * The provider of a service's own checks, built from the providers it injects; boot.ts serves them
 * on the service's health subject and readiness probe (`ownHealthChecks`).
 */
export function healthChecksProvider<Deps extends unknown[]>(inject: InjectionToken[], checks: (...deps: Deps) => Record<string, HealthCheck>): FactoryProvider {
  return {
    provide: HEALTH_CHECKS,
    inject: [INFRA, ...inject],
    useFactory: (infra: Infra, ...deps: unknown[]) => {
      const own = checks(...(deps as Deps));
      ownChecks.set(infra, own);
      return own;
    },
  };
}

/** The checks the service's module provided (none when it provides none). */
export function ownHealthChecks(infra: Infra): Record<string, HealthCheck> {
  return ownChecks.get(infra) ?? {};
}

/** The readiness note of a NATS connection without credentials (onOpenBus): shown, never failing. */
export const OPEN_BUS_DETAIL = 'sem credenciais: o NATS aceita qualquer cliente da rede (defina NATS_USER/NATS_PASSWORD)';

/** Checks every service has: its bus, and the database/Redis it was given. */
export function standardChecks(infra: Infra): Record<string, HealthCheck> {
  const open = onOpenBus(infra);
  const checks: Record<string, HealthCheck> = {
    nats: async () => {
      await infra.bus.transport.ping();
      return open ? OPEN_BUS_DETAIL : undefined;
    },
  };
  if (infra.database) checks.postgres = async () => void (await pingDatabase(infra.database!));
  if (infra.redis) checks.redis = async () => void (await pingRedis(infra.redis!));
  return checks;
}

async function runCheck(name: string, check: HealthCheck, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const note = await Promise.race([check(), new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new NoAnswer(`no answer in ${timeoutMs} ms`)), timeoutMs)))]);
    lastLogged.delete(name);
    return note ? { ok: true, detail: note } : { ok: true };
  } catch (e) {
    logFailure(name, e);
    return { ok: false, detail: publicDetail(e) };
  } finally {
    clearTimeout(timer);
  }
}

export async function runChecks(checks: Record<string, HealthCheck>, timeoutMs = 1000) {
  const entries = await Promise.all(Object.entries(checks).map(async ([name, check]) => [name, await runCheck(name, check, timeoutMs)] as const));
  const result: Record<string, CheckResult> = Object.fromEntries(entries);
  return { ok: Object.values(result).every((c) => c.ok), checks: result };
}

/** The checks each service serves on its health subject, for its HTTP readiness probe too (ops-server.ts). */
const served = new WeakMap<Infra, Record<string, HealthCheck>>();

/** The service's readiness checks: those it serves on its health subject, or the standard ones before it does. */
export function readinessChecks(infra: Infra): Record<string, HealthCheck> {
  return served.get(infra) ?? standardChecks(infra);
}

/** Answers `cota.<service>.health.v1` with the service's own checks. */
export function serveHealth(infra: Infra, extra: Record<string, HealthCheck> = {}): TransportSubscription {
  const checks = { ...standardChecks(infra), ...extra };
  served.set(infra, checks);
  return infra.bus.serve(HealthSubjects[infra.service], async () => ({
    service: infra.service,
    instance: infra.bus.instance,
    ...(await runChecks(checks)),
  }));
}
