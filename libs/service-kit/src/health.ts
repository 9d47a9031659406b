import { Global, Injectable, Module, ServiceUnavailableException } from '@nestjs/common';
import type { FactoryProvider, InjectionToken } from '@nestjs/common';
import { HealthCheckResult, HealthCheckService, HealthIndicatorResult, HealthIndicatorService, TerminusModule } from '@nestjs/terminus';
import { CotaError, HealthSubjects } from '@cota/contracts';
import { TransportSubscription } from '@cota/messaging';
import { pingDatabase } from './database';
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

/** What the probes answer: every check's result, ready when all are ok. */
export interface Readiness {
  ok: boolean;
  checks: Record<string, CheckResult>;
}

/** The check's answer, or NoAnswer once `timeoutMs` has passed. */
async function withTimeout<T>(answer: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new NoAnswer(`no answer in ${timeoutMs} ms`)), timeoutMs)));
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A terminus indicator's entry as the probes show it: `ok`, and the note or the public reason. */
function asCheckResult(entry: { status: string; detail?: unknown } | undefined): CheckResult {
  const detail = typeof entry?.detail === 'string' ? entry.detail : undefined;
  if (entry?.status === 'up') return detail ? { ok: true, detail } : { ok: true };
  return { ok: false, detail: detail ?? 'indisponível' };
}

/**
 * Readiness checks run by @nestjs/terminus: one indicator per check, aggregated by its HealthCheckService
 * (which also reports not ready once the app is shutting down). Terminus 11 gives a custom indicator no
 * timeout, so each check gets its own: one that does not answer in time is down, `sem resposta`.
 */
@Injectable()
export class ReadinessProbe {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
  ) {}

  async run(checks: Record<string, HealthCheck>, timeoutMs = 1000): Promise<Readiness> {
    const result = await this.health
      .check(
        Object.entries(checks).map(
          ([name, check]) =>
            () =>
              this.indicator(name, check, timeoutMs),
        ),
      )
      .catch((e: unknown) => {
        // Terminus throws its own result when a check is down or the app is shutting down.
        if (e instanceof ServiceUnavailableException) return e.getResponse() as HealthCheckResult;
        throw e;
      });
    // In the order the checks were given (terminus lists the failing ones last).
    const details = result.details as Record<string, { status: string; detail?: unknown }>;
    return { ok: result.status === 'ok', checks: Object.fromEntries(Object.keys(checks).map((name) => [name, asCheckResult(details[name])])) };
  }

  private async indicator(name: string, check: HealthCheck, timeoutMs: number): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(name);
    try {
      const note = await withTimeout(check(), timeoutMs);
      lastLogged.delete(name);
      return note ? indicator.up({ detail: note }) : indicator.up();
    } catch (e) {
      logFailure(name, e);
      return indicator.down({ detail: publicDetail(e) });
    }
  }
}

/**
 * Terminus and the readiness probe, in every service's app (boot.ts) and the ingest worker's. Terminus's
 * own failure log is off: a failing check is logged here once per change, not at every probe.
 */
@Global()
@Module({ imports: [TerminusModule.forRoot({ logger: false })], providers: [ReadinessProbe], exports: [ReadinessProbe] })
export class ReadinessModule {}

/** The checks each service serves on its health subject, for its HTTP readiness probe too (ops-server.ts). */
const served = new WeakMap<Infra, Record<string, HealthCheck>>();

/** The service's readiness checks: those it serves on its health subject, or the standard ones before it does. */
export function readinessChecks(infra: Infra): Record<string, HealthCheck> {
  return served.get(infra) ?? standardChecks(infra);
}

/** Answers `cota.<service>.health.v1` with the service's own checks. */
export function serveHealth(infra: Infra, probe: ReadinessProbe, extra: Record<string, HealthCheck> = {}): TransportSubscription {
  const checks = { ...standardChecks(infra), ...extra };
  served.set(infra, checks);
  return infra.bus.serve(HealthSubjects[infra.service], async () => ({
    service: infra.service,
    instance: infra.bus.instance,
    ...(await probe.run(checks)),
  }));
}
