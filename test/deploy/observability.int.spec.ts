import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { parse } from 'yaml';
import { repoRoot } from '@cota/config';
import { BusMetrics } from '@cota/messaging';
import { registerReadinessMetrics } from '@cota/service-kit';
import { FeedMetrics } from '@cota/feeds';
import type { DataSource } from 'typeorm';
import { GatewayMetrics } from '../../apps/gateway/src/metrics';

/**
 * deploy/observability/: the Grafana dashboard and the Prometheus alert rules parse, and every metric
 * (and every label in a selector) they use exists in the code's registry, so a renamed metric fails
 * here instead of leaving an empty panel or an alert that can never fire.
 */
const DIR = join(repoRoot(), 'deploy', 'observability');

/** Every series name the code exposes, with the label names each accepts. */
function codeMetrics(): Map<string, Set<string>> {
  const registry = new Registry();
  new BusMetrics(registry);
  new GatewayMetrics(registry);
  registerReadinessMetrics(registry, 'test', () => ({}));
  // The ingest worker's (names only: nothing is scraped here, so no database is asked).
  new FeedMetrics(registry, {} as DataSource, {}, () => '2026-11-27');
  const out = new Map<string, Set<string>>();
  for (const m of registry.getMetricsAsArray() as unknown as Array<{ name: string; labelNames?: string[]; constructor: { name: string } }>) {
    const labels = new Set(m.labelNames ?? []);
    if (m.constructor.name === 'Histogram') {
      out.set(`${m.name}_bucket`, new Set([...labels, 'le']));
      out.set(`${m.name}_sum`, labels);
      out.set(`${m.name}_count`, labels);
    } else {
      out.set(m.name, labels);
    }
  }
  return out;
}

/** Problems of one PromQL expression: unknown cota_* metrics, unknown labels in their selectors. */
function check(expr: string, known: Map<string, Set<string>>): string[] {
  const problems: string[] = [];
  const names = expr.match(/\bcota_[a-z0-9_]+/g) ?? [];
  if (!names.length && !/\bup\{/.test(expr)) problems.push(`uses no Cota metric: ${expr}`);
  for (const n of names) if (!known.has(n)) problems.push(`unknown metric ${n}`);
  for (const [, name, selector] of expr.matchAll(/\b(cota_[a-z0-9_]+)\{([^}]*)\}/g)) {
    for (const [, label] of selector.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)) {
      if (known.has(name) && !known.get(name)!.has(label)) problems.push(`${name} has no label '${label}'`);
    }
  }
  return problems;
}

describe('deploy/observability', () => {
  const known = codeMetrics();

  it('the code registry holds the bus, gateway and readiness metrics', () => {
    for (const n of [
      'cota_bus_handle_duration_seconds_bucket',
      'cota_bus_handle_errors_total',
      'cota_bus_in_flight',
      'cota_breaker_state',
      'cota_http_requests_total',
      'cota_service_ready',
    ]) {
      expect([n, known.has(n)]).toEqual([n, true]);
    }
  });

  it('alerts.yaml: valid rule groups; every metric and label it uses exists', () => {
    const doc = parse(readFileSync(join(DIR, 'alerts.yaml'), 'utf8')) as {
      groups: Array<{ name: string; rules: Array<{ alert: string; expr: string; for?: string; labels: { severity: string }; annotations: { summary: string } }> }>;
    };
    const rules = doc.groups.flatMap((g) => g.rules);
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining(['CotaHandlerErrorRate', 'CotaHttp5xxRate', 'CotaHandlerLatencyP99', 'CotaCircuitBreakerOpen', 'CotaServiceNotReady']),
    );
    const problems: string[] = [];
    for (const r of rules) {
      expect(r).toMatchObject({
        alert: expect.stringMatching(/^Cota[A-Za-z0-9]+$/),
        expr: expect.any(String),
        labels: { severity: expect.stringMatching(/^(warning|critical)$/) },
        annotations: { summary: expect.any(String) },
      });
      if (r.for !== undefined) expect(r.for).toMatch(/^\d+[smh]$/);
      problems.push(...check(r.expr, known).map((p) => `${r.alert}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  it('grafana-dashboard.json: latency quantiles, errors, in-flight, breakers and 503s, all on existing metrics', () => {
    const dash = JSON.parse(readFileSync(join(DIR, 'grafana-dashboard.json'), 'utf8')) as {
      uid: string;
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
      templating: { list: Array<{ query: string | unknown }> };
    };
    expect(dash.uid).toBe('cota-observability');
    const exprs = dash.panels.flatMap((p) => p.targets.map((t) => t.expr));
    const all = exprs.join('\n');
    for (const q of ['0.5', '0.95', '0.99']) expect(all).toContain(`histogram_quantile(${q}, sum by (le, subject) (rate(cota_bus_handle_duration_seconds_bucket`);
    for (const needle of ['cota_bus_handle_errors_total', 'cota_bus_in_flight', 'cota_breaker_state', 'cota_http_requests_total{status="503"}']) expect(all).toContain(needle);
    const problems = exprs.flatMap((e) => check(e, known));
    for (const v of dash.templating.list) if (typeof v.query === 'string' && v.query.includes('cota_')) problems.push(...check(v.query, known));
    expect(problems).toEqual([]);
  });

  it('the check is real: an unknown metric or label is reported', () => {
    expect(check('rate(cota_bus_handled_total[5m])', known)).toEqual(['unknown metric cota_bus_handled_total']);
    expect(check('cota_breaker_state{targett="planner"}', known)).toEqual(["cota_breaker_state has no label 'targett'"]);
  });

  it('prometheus-scrape.yaml keeps annotated Cota pods and reads the alert rules', () => {
    const doc = parse(readFileSync(join(DIR, 'prometheus-scrape.yaml'), 'utf8')) as {
      scrape_configs: Array<{ job_name: string; authorization?: { type: string; credentials_file?: string }; relabel_configs: Array<{ source_labels: string[] }> }>;
      rule_files: string[];
    };
    const job = doc.scrape_configs.find((j) => j.job_name === 'cota')!;
    expect(job.relabel_configs.flatMap((r) => r.source_labels)).toEqual(
      expect.arrayContaining(['__meta_kubernetes_pod_annotation_prometheus_io_scrape', '__meta_kubernetes_pod_annotation_prometheus_io_port']),
    );
    expect(doc.rule_files).toContain('alerts.yaml');
    // The metrics ports need the ops token when it is set (it is, in deploy/): Prometheus sends it as bearer.
    expect(job.authorization).toEqual({ type: 'Bearer', credentials_file: expect.stringMatching(/COTA_OPS_TOKEN$/) });
  });
});
