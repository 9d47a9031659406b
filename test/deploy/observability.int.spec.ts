import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { parse } from 'yaml';
import { repoRoot } from '@cota/config';
import { BusMetrics } from '@cota/messaging';
import { registerProcessMetrics, registerReadinessMetrics } from '@cota/service-kit';
import { FeedMetrics } from '@cota/feeds';
import type { DataSource } from 'typeorm';
import { ASK_DURATION_BUCKETS, GatewayMetrics } from '../../apps/gateway/src/metrics';

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
  registerReadinessMetrics(registry, 'test', async () => ({ ok: true, checks: {} }));
  // The ingest worker's (names only: nothing is scraped here, so no database is asked).
  new FeedMetrics(registry, {} as DataSource, {}, () => '2026-11-27');
  // The Node.js process metrics every service registers, under their standard names.
  registerProcessMetrics(registry);
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

/** Labels every scraped series gets from the scrape itself (prometheus-scrape.yaml relabelling). */
const SCRAPE_LABELS = new Set(['job', 'instance', 'namespace', 'pod', 'component']);
const METRIC_NAME = /\b((?:cota|process|nodejs)_[a-z0-9_]+)/g;

/** Problems of one PromQL expression: unknown cota_*, process_* or nodejs_* metrics, unknown labels in their selectors. */
function check(expr: string, known: Map<string, Set<string>>): string[] {
  const problems: string[] = [];
  const names = [...expr.matchAll(METRIC_NAME)].map((m) => m[1]);
  if (!names.length && !/\bup\{/.test(expr)) problems.push(`uses no Cota metric: ${expr}`);
  for (const n of names) if (!known.has(n)) problems.push(`unknown metric ${n}`);
  for (const [, name, selector] of expr.matchAll(/\b((?:cota|process|nodejs)_[a-z0-9_]+)\{([^}]*)\}/g)) {
    for (const [, label] of selector.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)) {
      if (known.has(name) && !known.get(name)!.has(label) && !SCRAPE_LABELS.has(label)) problems.push(`${name} has no label '${label}'`);
    }
  }
  let depth = 0;
  for (const c of expr) if ((depth += c === '(' ? 1 : c === ')' ? -1 : 0) < 0) break;
  if (depth !== 0) problems.push(`unbalanced parentheses: ${expr}`);
  return problems;
}

type Rule = { alert?: string; record?: string; expr: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
const readRules = () => parse(readFileSync(join(DIR, 'alerts.yaml'), 'utf8')) as { groups: Array<{ name: string; rules: Rule[] }> };

/** The rule-file schema promtool enforces (without promtool): groups, rule keys, durations, names. */
function ruleFileProblems(doc: { groups: Array<{ name: string; rules: Rule[] }> }): string[] {
  const problems: string[] = [];
  const groupNames = new Set<string>();
  const ruleKeys = new Set(['alert', 'record', 'expr', 'for', 'keep_firing_for', 'labels', 'annotations']);
  for (const g of doc.groups) {
    if (!g.name || groupNames.has(g.name)) problems.push(`group name missing or repeated: ${g.name}`);
    groupNames.add(g.name);
    if (!Array.isArray(g.rules) || !g.rules.length) problems.push(`group ${g.name} has no rules`);
    for (const r of g.rules ?? []) {
      const id = r.alert ?? r.record ?? '?';
      for (const k of Object.keys(r)) if (!ruleKeys.has(k)) problems.push(`${id}: unknown key ${k}`);
      if (!r.alert === !r.record) problems.push(`${id}: exactly one of alert and record`);
      if (r.record && !/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(r.record)) problems.push(`${id}: bad record name`);
      if (r.record && (r.for || r.annotations)) problems.push(`${id}: a recording rule has no for or annotations`);
      if (typeof r.expr !== 'string' || !r.expr.trim()) problems.push(`${id}: no expr`);
      if (r.for !== undefined && !/^(\d+(ms|s|m|h|d|w|y))+$/.test(r.for)) problems.push(`${id}: bad duration ${r.for}`);
      for (const [k, v] of Object.entries({ ...r.labels, ...r.annotations })) {
        if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(k)) problems.push(`${id}: bad label name ${k}`);
        if (typeof v !== 'string') problems.push(`${id}: label ${k} is not a string`);
      }
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
    const doc = readRules();
    expect(ruleFileProblems(doc)).toEqual([]);
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
      panels: Array<{ title: string; type: string; targets?: Array<{ expr: string }> }>;
      templating: { list: Array<{ query: string | unknown }> };
    };
    expect(dash.uid).toBe('cota-observability');
    const exprs = dash.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    const all = exprs.join('\n');
    for (const q of ['0.5', '0.95', '0.99']) expect(all).toContain(`histogram_quantile(${q}, sum by (le, subject) (rate(cota_bus_handle_duration_seconds_bucket`);
    for (const needle of ['cota_bus_handle_errors_total', 'cota_bus_in_flight', 'cota_breaker_state', 'cota_http_requests_total{status="503"}']) expect(all).toContain(needle);
    const problems = exprs.flatMap((e) => check(e, known));
    for (const v of dash.templating.list) if (typeof v.query === 'string' && v.query.includes('cota_')) problems.push(...check(v.query, known));
    expect(problems).toEqual([]);
  });

  it('grafana-dashboard.json: answers/s, steps, 503s per subject, bulkhead queue, cache hit rate, ingest freshness, Node.js processes', () => {
    const dash = JSON.parse(readFileSync(join(DIR, 'grafana-dashboard.json'), 'utf8')) as { panels: Array<{ id: number; title: string; targets?: Array<{ expr: string }> }> };
    const all = dash.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)).join('\n');
    for (const needle of [
      'rate(cota_ask_duration_seconds_count',
      'cota_ask_step_duration_seconds_bucket',
      'cota_bus_call_duration_seconds_count{service="gateway",outcome="UNAVAILABLE"}',
      'cota_bus_queued',
      'cota_cache_requests_total{result="hit"}',
      'cota_feed_data_lag_days',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect([needle, all.includes(needle)]).toEqual([needle, true]);
    const ids = dash.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('alerts.yaml: the /ask objectives are the ones docs/OPERATIONS.md states, on a bucket the histogram has', () => {
    const doc = readRules();
    const slo = doc.groups.find((g) => g.name === 'cota-slo')!.rules;
    expect(slo.map((r) => r.labels?.slo).sort()).toEqual(['ask-availability', 'ask-availability', 'ask-latency', 'ask-latency']);
    const ops = readFileSync(join(repoRoot(), 'docs', 'OPERATIONS.md'), 'utf8');
    const section = ops.slice(ops.indexOf('## Service level objectives'));
    expect(section.length).toBeLessThan(ops.length);
    for (const r of slo) {
      const objectives = [...r.expr.matchAll(/\(1 - (0\.\d+)\)/g)].map((m) => m[1]);
      expect(objectives).toHaveLength(2);
      const pct = `${(Number(objectives[0]) * 100).toLocaleString('en', { maximumFractionDigits: 2 })}%`;
      expect([r.alert, section.includes(pct)]).toEqual([r.alert, true]);
      // A threshold between two buckets would be read from the next one up: it must be a bucket.
      for (const [, le] of r.expr.matchAll(/le="([\d.]+)"/g)) {
        expect([r.alert, ASK_DURATION_BUCKETS.includes(Number(le))]).toEqual([r.alert, true]);
        expect([r.alert, section.includes(`${le} s`)]).toEqual([r.alert, true]);
      }
    }
  });

  it('alerts.yaml passes promtool when it is installed', () => {
    let promtool = true;
    try {
      execFileSync('promtool', ['--version'], { stdio: 'ignore' });
    } catch {
      promtool = false;
    }
    if (!promtool) {
      // Without promtool the schema check above stands in; it rejects what promtool would.
      expect(ruleFileProblems({ groups: [{ name: 'g', rules: [{ alert: 'A', record: 'b', expr: 'up', for: '5 minutes' }] }] })).toEqual([
        'A: exactly one of alert and record',
        'A: a recording rule has no for or annotations',
        'A: bad duration 5 minutes',
      ]);
      return;
    }
    execFileSync('promtool', ['check', 'rules', join(DIR, 'alerts.yaml')], { stdio: 'pipe' });
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
