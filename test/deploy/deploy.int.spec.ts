import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import { parse, stringify } from 'yaml';
import { ALL_BROADCASTS, ALL_RPCS, Events, NATS_USERS, natsPasswordVariable, renderNatsConfig, SERVICES } from '@cota/contracts';
import { repoRoot } from '@cota/config';
import { DEFAULT_METRICS_PORTS } from '@cota/service-kit';
import { buildAsyncApiDocument, channelId } from './asyncapi-model';
import { pinImage } from '../../cli/release-pin';
import { buildKustomization, K8sObject, readYamlDocs } from './kustomize';

const ROOT = repoRoot();
const ASYNCAPI = join(ROOT, 'docs', 'asyncapi.yaml');
const ASYNCAPI_HEADER =
  '# Cota NATS subjects and telemetry events (AsyncAPI 3.0).\n' +
  '# Generated from libs/contracts by test/deploy/asyncapi-model.ts; do not edit by hand.\n' +
  '# Regenerate: UPDATE_ASYNCAPI=1 npx jest --config jest.config.cjs test/deploy\n';

describe('docs/asyncapi.yaml', () => {
  if (process.env.UPDATE_ASYNCAPI === '1') {
    writeFileSync(ASYNCAPI, ASYNCAPI_HEADER + stringify(buildAsyncApiDocument(), { lineWidth: 0, aliasDuplicateObjects: false }));
  }
  const text = readFileSync(ASYNCAPI, 'utf8');
  const doc = parse(text) as { channels: Record<string, { address: string | null }>; operations: Record<string, { action: string }> };

  it('parses with @asyncapi/parser without errors or warnings', async () => {
    const { document, diagnostics } = await new Parser().parse(text);
    const problems = diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.path.join('.')}: ${d.message}`);
    expect(problems).toEqual([]);
    expect(document).toBeDefined();
    expect(document!.version()).toBe('3.0.0');
  });

  it('documents every request-reply subject with a request/reply operation', () => {
    const addresses = new Set(Object.values(doc.channels).map((c) => c.address));
    const missing = ALL_RPCS.map((r) => r.subject).filter((s) => !addresses.has(s));
    expect(missing).toEqual([]);
    for (const rpc of ALL_RPCS) {
      const op = doc.operations[channelId(rpc.subject)] as { action: string; reply?: unknown };
      expect(op).toMatchObject({ action: 'receive' });
      expect(op.reply).toBeDefined();
    }
  });

  it('documents every telemetry event', () => {
    const addresses = new Set(Object.values(doc.channels).map((c) => c.address));
    const missing = Object.values(Events)
      .map((e) => e.subject)
      .filter((s) => !addresses.has(s));
    expect(missing).toEqual([]);
    for (const e of Object.values(Events)) expect(doc.operations[channelId(e.subject)]).toMatchObject({ action: 'send' });
  });

  it('documents every broadcast, sent and received', () => {
    const addresses = new Set(Object.values(doc.channels).map((c) => c.address));
    expect(ALL_BROADCASTS.map((b) => b.subject).filter((s) => !addresses.has(s))).toEqual([]);
    for (const b of ALL_BROADCASTS) {
      expect(doc.operations[channelId(b.subject)]).toMatchObject({ action: 'send' });
      expect(doc.operations[`${channelId(b.subject)}_receive`]).toMatchObject({ action: 'receive' });
    }
  });

  it('matches the zod schemas of libs/contracts exactly (regenerate when contracts change)', () => {
    expect(parse(text)).toEqual(JSON.parse(JSON.stringify(buildAsyncApiDocument())));
  });
});

const NATS_CONF = join(ROOT, 'deploy', 'nats', 'nats.conf');
const NATS_CONFIGMAP = join(ROOT, 'deploy', 'base', 'nats-config.yaml');

/** The ConfigMap that carries the generated NATS config (mounted by the NATS server, deploy/overlays/dev/infra.yaml). */
function natsConfigMapYaml(): string {
  return (
    '# NATS users and per-service subject permissions, generated from libs/contracts (bus-access.ts); do not edit by hand.\n' +
    '# Regenerate: UPDATE_NATS_AUTH=1 npx jest --config jest.config.cjs test/deploy\n' +
    '# Mount it as the server config (`nats-server -c /etc/nats/nats.conf`) and give the server every\n' +
    '# COTA_NATS_PASSWORD_<USER> from the Secrets cota-nats-<user> (deploy/README.md).\n' +
    stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cota-nats-config' }, data: { 'nats.conf': renderNatsConfig() } }, { lineWidth: 0 })
  );
}

describe('NATS users and permissions (generated from libs/contracts)', () => {
  if (process.env.UPDATE_NATS_AUTH === '1') {
    writeFileSync(NATS_CONF, renderNatsConfig());
    writeFileSync(NATS_CONFIGMAP, natsConfigMapYaml());
  }

  it('deploy/nats/nats.conf is the generated config (regenerate when contracts or callers change)', () => {
    expect(readFileSync(NATS_CONF, 'utf8')).toBe(renderNatsConfig());
  });

  it('deploy/base/nats-config.yaml carries the same config', () => {
    expect(readFileSync(NATS_CONFIGMAP, 'utf8')).toBe(natsConfigMapYaml());
  });
});

type Validatable = { validate(): void };
const MODELS: Record<string, new (data: never) => Validatable> = {
  'apps/v1/Deployment': Deployment as never,
  'apps/v1/StatefulSet': StatefulSet as never,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler as never,
  'batch/v1/Job': Job as never,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy as never,
  'networking.k8s.io/v1/Ingress': Ingress as never,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget as never,
  'v1/ConfigMap': ConfigMap as never,
  'v1/Secret': Secret as never,
  'v1/Service': Service as never,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim as never,
};

function validateAll(objs: K8sObject[]): string[] {
  const errors: string[] = [];
  for (const o of objs) {
    const Model = MODELS[`${o.apiVersion}/${o.kind}`];
    if (!Model) {
      errors.push(`${o.apiVersion}/${o.kind} ${o.metadata?.name}: no schema to validate against`);
      continue;
    }
    try {
      new Model(o as never).validate();
    } catch (e) {
      errors.push(`${o.kind}/${o.metadata?.name}: ${(e as Error).message}`);
    }
  }
  return errors;
}

const find = (objs: K8sObject[], kind: string, name: string) => objs.find((o) => o.kind === kind && o.metadata.name === name);

function readYamlFromString(text: string): unknown[] {
  return text
    .split(/^---$/m)
    .map((d) => parse(d) as unknown)
    .filter((d) => d !== null && d !== undefined);
}

/** Objects compared as data: key order and YAML scalar spelling aside. */
const normalise = (o: unknown): unknown =>
  JSON.parse(JSON.stringify(o, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v)));

type Container = {
  name: string;
  image: string;
  args?: string[];
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  readinessProbe?: { httpGet?: { path: string; port: string | number }; exec?: { command: string[] } };
  livenessProbe?: { httpGet?: { path: string; port: string | number }; exec?: { command: string[] } };
  startupProbe?: { httpGet?: { path: string; port: string | number }; exec?: { command: string[] } };
  ports?: Array<{ name: string; containerPort: number }>;
};
const containersOf = (o: K8sObject) => (o.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers;

type Policy = {
  podSelector: { matchLabels?: Record<string, string> };
  policyTypes: string[];
  ingress?: Array<{ ports?: Array<{ port: number }> }>;
  egress?: Array<{ to?: unknown[]; ports?: Array<{ port: number }> }>;
};

/** Default deny, then per service: NATS, and only the stores and endpoints it uses; ingress to the gateway only. */
function checkNetworkPolicies(objs: K8sObject[]): void {
  const policies = objs.filter((o) => o.kind === 'NetworkPolicy');
  const deny = find(policies, 'NetworkPolicy', 'cota-default-deny')!.spec as Policy;
  expect(deny).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
  const needs: Record<string, number[]> = {
    gateway: [4222, 5432, 6379],
    planner: [4222, 443],
    context: [4222, 5432, 6379],
    'tool-gate': [4222],
    executor: [4222, 5432, 25, 465, 587],
    rag: [4222, 5432, 443],
    narrator: [4222, 443],
  };
  for (const svc of SERVICES) {
    const p = find(policies, 'NetworkPolicy', `cota-${svc}`)!.spec as Policy;
    expect(p.podSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': `cota-${svc}` });
    const egressPorts = (p.egress ?? []).flatMap((r) => (r.ports ?? []).map((x) => x.port));
    expect({ svc, ports: egressPorts.sort() }).toEqual({ svc, ports: [...needs[svc]].sort() });
    expect((p.egress ?? []).every((r) => (r.ports ?? []).length > 0)).toBe(true); // never "any port"
    if (svc === 'gateway') {
      expect(p.policyTypes).toEqual(['Ingress', 'Egress']);
      expect(p.ingress!.flatMap((r) => r.ports!.map((x) => x.port))).toEqual([3000]);
    } else {
      expect(p.policyTypes).toEqual(['Egress']);
      expect(p.ingress).toBeUndefined();
    }
  }
  // Traces: every Cota pod may reach an OpenTelemetry Collector's OTLP/HTTP port, and nothing else by that policy.
  const otlp = find(policies, 'NetworkPolicy', 'cota-otlp-export')!.spec as Policy & { egress: Array<{ to: Array<{ podSelector: { matchLabels: Record<string, string> } }> }> };
  expect(otlp.podSelector.matchLabels).toEqual({ 'app.kubernetes.io/part-of': 'cota' });
  expect(otlp.egress.flatMap((r) => r.ports!.map((x) => x.port))).toEqual([4318]);
  expect(otlp.egress[0].to[0].podSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'otel-collector' });
  const dns = find(policies, 'NetworkPolicy', 'cota-allow-dns')!.spec as Policy;
  expect(dns.egress!.flatMap((r) => r.ports!.map((x) => x.port))).toEqual([53, 53]);
  const ingress = policies.filter((o) => ((o.spec as Policy).policyTypes ?? []).includes('Ingress') && o.metadata.name.startsWith('cota-'));
  expect(ingress.map((o) => o.metadata.name).sort()).toEqual(['cota-default-deny', 'cota-gateway']);
}

function checkServices(objs: K8sObject[], expectTag: string): void {
  for (const svc of SERVICES) {
    const name = `cota-${svc}`;
    const dep = find(objs, 'Deployment', name);
    const service = find(objs, 'Service', name);
    const hpa = find(objs, 'HorizontalPodAutoscaler', name);
    expect({ svc, dep: !!dep, service: !!service, hpa: !!hpa }).toEqual({ svc, dep: true, service: true, hpa: true });

    const spec = dep!.spec as { replicas?: number; selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string> } } };
    expect(spec.replicas).toBeUndefined(); // the HPA owns the replica count
    for (const [k, v] of Object.entries(spec.selector.matchLabels)) expect(spec.template.metadata.labels[k]).toBe(v);
    const svcSelector = (service!.spec as { selector: Record<string, string> }).selector;
    for (const [k, v] of Object.entries(svcSelector)) expect(spec.template.metadata.labels[k]).toBe(v);
    expect((hpa!.spec as { scaleTargetRef: { kind: string; name: string } }).scaleTargetRef).toMatchObject({ kind: 'Deployment', name });

    const [c] = containersOf(dep!);
    expect(c.args).toEqual([svc]);
    expect(c.image).toBe(`cota:${expectTag}`);
    expect(c.envFrom).toEqual([{ configMapRef: { name: 'cota-config' } }, { secretRef: { name: 'cota-secrets' } }]);
    // Its own NATS user, from its own Secret (issue 11).
    expect(c.env).toEqual([
      { name: 'NATS_USER', valueFrom: { secretKeyRef: { name: `cota-nats-${svc}`, key: 'NATS_USER' } } },
      { name: 'NATS_PASSWORD', valueFrom: { secretKeyRef: { name: `cota-nats-${svc}`, key: 'NATS_PASSWORD' } } },
    ]);
    for (const probe of [c.readinessProbe, c.livenessProbe, c.startupProbe]) {
      expect(probe).toBeDefined();
      if (svc === 'gateway') expect(probe!.httpGet?.path).toMatch(/^\/health\/(live|ready)$/);
      // The others: HTTP probes on their metrics port (issue 11), no exec of a Node process.
      else expect(probe!.httpGet).toEqual({ path: expect.stringMatching(/^\/health\/(live|ready)$/), port: 'metrics' });
    }
    expect(c.readinessProbe!.httpGet!.path).toBe('/health/ready');
    // Replicas spread over nodes and zones, each constraint selecting this service's own pods.
    const spread = (
      spec.template as unknown as { spec: { topologySpreadConstraints?: Array<{ topologyKey: string; maxSkew: number; labelSelector: { matchLabels: Record<string, string> } }> } }
    ).spec.topologySpreadConstraints;
    expect({ svc, keys: (spread ?? []).map((t) => t.topologyKey) }).toEqual({ svc, keys: ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'] });
    for (const t of spread!) expect(t).toMatchObject({ maxSkew: 1, labelSelector: { matchLabels: { 'app.kubernetes.io/name': name } } });
    // Rolling restarts drain: a preStop pause lets the endpoints drop the pod before SIGTERM (issue 11).
    expect((c as Container & { lifecycle?: unknown }).lifecycle).toEqual({ preStop: { exec: { command: ['sleep', expect.stringMatching(/^\d+$/)] } } });
    // Metrics on the service's default port, scraped by annotation (deploy/observability/prometheus-scrape.yaml).
    expect(c.ports).toEqual(expect.arrayContaining([{ name: 'metrics', containerPort: DEFAULT_METRICS_PORTS[svc] }]));
    expect((spec.template.metadata as { annotations?: Record<string, string> }).annotations).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(DEFAULT_METRICS_PORTS[svc]),
      'prometheus.io/path': '/metrics',
    });
  }
  // The services bind loopback unless told otherwise: every container (envFrom cota-config) says every interface.
  expect(find(objs, 'ConfigMap', 'cota-config')!.data).toMatchObject({ HOST: '0.0.0.0', COTA_METRICS_HOST: '0.0.0.0' });
  expect((find(objs, 'ConfigMap', 'cota-nats-config')!.data as Record<string, string>)['nats.conf']).toBe(renderNatsConfig());
  checkNetworkPolicies(objs);
  const job = find(objs, 'Job', 'cota-ingest');
  expect(job).toBeDefined();
  expect(containersOf(job!)[0]).toMatchObject({ image: `cota:${expectTag}` });
}

describe('Kubernetes manifests (deploy/)', () => {
  const deployDir = join(ROOT, 'deploy');

  it('every YAML file parses', () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.ya?ml$/.test(f)) files.push(p);
      }
    };
    walk(deployDir);
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) expect(() => readYamlDocs(f)).not.toThrow();
    expect(files.map((f) => relative(deployDir, f))).toEqual(
      expect.arrayContaining(['base/kustomization.yaml', 'overlays/dev/kustomization.yaml', 'overlays/prod/kustomization.yaml']),
    );
  });

  it('base: every object is valid and each service has Deployment, Service and HPA', () => {
    const objs = buildKustomization(join(deployDir, 'base'));
    expect(validateAll(objs)).toEqual([]);
    checkServices(objs, 'latest');
  });

  it('overlay dev: valid, namespaced, patched, with its own backing services and secret', () => {
    const objs = buildKustomization(join(deployDir, 'overlays', 'dev'));
    expect(validateAll(objs)).toEqual([]);
    checkServices(objs, 'dev');
    expect(objs.every((o) => o.metadata.namespace === 'cota-dev')).toBe(true);
    for (const o of objs.filter((x) => x.kind === 'HorizontalPodAutoscaler')) expect((o.spec as { minReplicas: number }).minReplicas).toBe(1);
    for (const name of ['nats', 'postgres', 'redis']) expect(find(objs, 'Service', name)).toBeDefined();
    // JetStream for the warehouse change events' stream only (issue 27), stored on the pod's data volume.
    expect(containersOf(find(objs, 'Deployment', 'nats')!)[0].args).toEqual(expect.arrayContaining(['-js', '-sd', '/data/jetstream']));
    expect(find(objs, 'Secret', 'cota-secrets')).toBeDefined();
    // One NATS Secret per user; the dev NATS server runs the generated config with every password.
    for (const u of NATS_USERS) expect((find(objs, 'Secret', `cota-nats-${u}`)!.stringData as Record<string, string>).NATS_USER).toBe(u);
    const natsContainer = containersOf(find(objs, 'Deployment', 'nats')!)[0] as Container & { volumeMounts: Array<{ mountPath: string }> };
    expect(natsContainer.args!.slice(0, 2)).toEqual(['-c', '/etc/nats/nats.conf']);
    expect(natsContainer.volumeMounts.map((m) => m.mountPath)).toContain('/etc/nats');
    expect(natsContainer.env).toEqual(NATS_USERS.map((u) => ({ name: natsPasswordVariable(u), valueFrom: { secretKeyRef: { name: `cota-nats-${u}`, key: 'NATS_PASSWORD' } } })));
    for (const name of ['nats-ingress', 'postgres-ingress', 'redis-ingress']) expect(find(objs, 'NetworkPolicy', name)).toBeDefined();
    expect((find(objs, 'ConfigMap', 'cota-config')!.data as Record<string, string>).COTA_LOG_LEVEL).toBe('debug');
  });

  it('overlay dev: traces go to an OpenTelemetry Collector and Jaeger of the tracing component, through the network policies', () => {
    const objs = buildKustomization(join(deployDir, 'overlays', 'dev'));
    for (const [kind, name] of [
      ['Deployment', 'otel-collector'],
      ['Service', 'otel-collector'],
      ['ConfigMap', 'otel-collector-config'],
      ['Deployment', 'jaeger'],
      ['Service', 'jaeger'],
      ['NetworkPolicy', 'otel-collector'],
      ['NetworkPolicy', 'jaeger'],
    ])
      expect([kind, name, find(objs, kind, name)?.metadata.namespace]).toEqual([kind, name, 'cota-dev']);
    expect((find(objs, 'ConfigMap', 'cota-config')!.data as Record<string, string>).OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://otel-collector:4318');
    // The collector runs the same configuration as docker compose.
    const config = (find(objs, 'ConfigMap', 'otel-collector-config')!.data as Record<string, string>)['config.yaml'];
    expect(config).toBe(readFileSync(join(deployDir, 'observability', 'otel-collector.yaml'), 'utf8'));
    const pipeline = (parse(config) as { service: { pipelines: { traces: { receivers: string[]; exporters: string[] } } }; exporters: Record<string, { endpoint: string }> })
      .service.pipelines.traces;
    expect(pipeline.receivers).toEqual(['otlp']);
    expect((parse(config) as { exporters: Record<string, { endpoint: string }> }).exporters[pipeline.exporters[0]].endpoint).toBe('jaeger:4317');
    // Under the default deny: OTLP in from Cota pods, out to Jaeger; Jaeger takes it from the collector only.
    type Rule = { from?: Array<{ podSelector: { matchLabels: Record<string, string> } }>; to?: unknown[]; ports: Array<{ port: number }> };
    const collector = find(objs, 'NetworkPolicy', 'otel-collector')!.spec as { ingress: Rule[]; egress: Rule[] };
    expect(collector.ingress).toEqual([{ from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'cota' } } }], ports: [{ protocol: 'TCP', port: 4318 }] }]);
    expect(collector.egress.flatMap((r) => r.ports.map((p) => p.port))).toEqual([4317, 53, 53]);
    const jaeger = find(objs, 'NetworkPolicy', 'jaeger')!.spec as { ingress: Rule[] };
    expect(jaeger.ingress).toEqual([{ from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'otel-collector' } } }], ports: [{ protocol: 'TCP', port: 4317 }] }]);
    const service = find(objs, 'Service', 'otel-collector')!.spec as { selector: Record<string, string>; ports: Array<{ port: number }> };
    expect(service.ports.map((p) => p.port)).toContain(4318);
    const pods = (find(objs, 'Deployment', 'otel-collector')!.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;
    expect(pods).toMatchObject(service.selector);
  });

  it('overlay prod: valid, namespaced, patched, secret left to the operator', () => {
    const objs = buildKustomization(join(deployDir, 'overlays', 'prod'));
    expect(validateAll(objs)).toEqual([]);
    checkServices(objs, '0.1.0');
    expect(objs.every((o) => o.metadata.namespace === 'cota')).toBe(true);
    expect(find(objs, 'HorizontalPodAutoscaler', 'cota-gateway')!.spec).toMatchObject({ minReplicas: 3, maxReplicas: 20 });
    const executor = containersOf(find(objs, 'Deployment', 'cota-executor')!)[0] as Container & { resources: unknown; readinessProbe: unknown };
    expect(executor.resources).toEqual({ requests: { cpu: '100m', memory: '512Mi' }, limits: { cpu: '2', memory: '1Gi' } });
    expect(executor.readinessProbe).toBeDefined(); // the merge kept what the patch did not touch
    expect(find(objs, 'Secret', 'cota-secrets')).toBeUndefined();
    expect(objs.filter((o) => o.kind === 'Secret')).toEqual([]); // NATS passwords too: created by the operator
    expect(objs.filter((o) => o.kind === 'PodDisruptionBudget')).toHaveLength(SERVICES.length);
  });

  it('overlay prod: the gateway on HTTPS through an Ingress whose certificate cert-manager issues', () => {
    const objs = buildKustomization(join(deployDir, 'overlays', 'prod'));
    const ingress = find(objs, 'Ingress', 'cota-gateway')!;
    expect(ingress.metadata.namespace).toBe('cota');
    expect((ingress.metadata as unknown as { annotations: Record<string, string> }).annotations['cert-manager.io/cluster-issuer']).toEqual(expect.any(String));
    type Spec = {
      tls: Array<{ hosts: string[]; secretName: string }>;
      rules: Array<{ host: string; http: { paths: Array<{ path: string; backend: { service: { name: string; port: { name: string } } } }> } }>;
    };
    const spec = ingress.spec as Spec;
    // Every host served is covered by the certificate, and goes to the gateway's named port.
    expect(spec.tls[0].secretName).toEqual(expect.any(String));
    expect(spec.rules.map((r) => r.host).sort()).toEqual([...spec.tls[0].hosts].sort());
    const gateway = find(objs, 'Service', 'cota-gateway')!.spec as { ports: Array<{ name: string }> };
    for (const r of spec.rules) for (const p of r.http.paths) expect(gateway.ports.map((x) => x.name)).toContain(p.backend.service.port.name);
    expect(spec.rules.flatMap((r) => r.http.paths.map((p) => p.backend.service.name))).toEqual(['cota-gateway']);
  });

  it('overlay prod: CPU requests derived from the load benchmark (CPU per answer, the HPA target)', () => {
    // Design point of deploy/overlays/prod/cpu-requests.yaml: one replica serves 100 answers/s at the HPA's target.
    const ANSWERS_PER_S_PER_REPLICA = 100;
    const record = JSON.parse(readFileSync(join(ROOT, 'bench', 'results', 'load.json'), 'utf8')) as {
      runs: Array<{ mode: string; connections: number; cpu_ms_per_answer: Record<string, number> }>;
    };
    const loaded = record.runs.find((r) => r.mode === 'distributed' && r.connections === 32)!;
    const objs = buildKustomization(join(deployDir, 'overlays', 'prod'));
    for (const svc of SERVICES) {
      const hpa = find(objs, 'HorizontalPodAutoscaler', `cota-${svc}`)!.spec as { metrics: Array<{ resource: { name: string; target: { averageUtilization: number } } }> };
      const target = hpa.metrics.find((m) => m.resource.name === 'cpu')!.resource.target.averageUtilization / 100;
      const millicores = (loaded.cpu_ms_per_answer[svc] * ANSWERS_PER_S_PER_REPLICA) / target;
      const expected = `${Math.max(100, Math.ceil(millicores / 25) * 25)}m`;
      const [c] = containersOf(find(objs, 'Deployment', `cota-${svc}`)!) as Array<Container & { resources: { requests: { cpu: string } } }>;
      expect({ svc, cpu: c.resources.requests.cpu }).toEqual({ svc, cpu: expected });
    }
  });

  it('a release pins the image by digest: the production overlay built with it references <registry>/cota@sha256', () => {
    const prod = join(deployDir, 'overlays', 'prod');
    const tmp = mkdtempSync(join(tmpdir(), 'cota-release-'));
    try {
      // The overlay copied next to a link to the base, as tools/release.sh leaves it after the push.
      mkdirSync(join(tmp, 'overlays', 'prod'), { recursive: true });
      symlinkSync(join(deployDir, 'base'), join(tmp, 'base'));
      for (const f of readdirSync(prod)) writeFileSync(join(tmp, 'overlays', 'prod', f), readFileSync(join(prod, f)));
      const digest = `sha256:${createHash('sha256').update('a build of cota').digest('hex')}`;
      const file = join(tmp, 'overlays', 'prod', 'kustomization.yaml');
      const pinned = pinImage(readFileSync(file, 'utf8'), 'ghcr.io/cota-fii/cota', digest);
      expect(pinned).toContain('# The one image of every service, by digest'); // comments survive
      writeFileSync(file, pinned);
      const objs = buildKustomization(join(tmp, 'overlays', 'prod'));
      expect(validateAll(objs)).toEqual([]);
      const images = objs.flatMap((o) => (['Deployment', 'Job'].includes(o.kind) ? containersOf(o).map((c) => c.image) : []));
      expect(new Set(images)).toEqual(new Set([`ghcr.io/cota-fii/cota@${digest}`]));
      expect(() => pinImage(pinned, 'ghcr.io/cota-fii/cota', 'latest')).toThrow(/digest/);
      expect(() => pinImage(pinned, 'cota', digest)).toThrow(/registry/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    // Committed: the package's version until the first release, or a digest after one; never `latest`.
    const image = (readYamlDocs(join(prod, 'kustomization.yaml'))[0] as { images: Array<{ name: string; newTag?: string; digest?: string }> }).images[0];
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    if (image.digest) expect(image.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    else expect(image.newTag).toBe(version);
  });

  it('kubectl kustomize (when installed) builds every overlay into the same objects as the offline build', () => {
    try {
      execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    } catch {
      return; // the offline build above stands in
    }
    const key = (o: K8sObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    for (const dir of ['base', 'overlays/dev', 'overlays/prod']) {
      const out = execFileSync('kubectl', ['kustomize', join(deployDir, dir)], { encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
      const real = new Map((readYamlFromString(out) as K8sObject[]).map((o) => [key(o), o]));
      const offline = new Map(buildKustomization(join(deployDir, dir)).map((o) => [key(o), o]));
      expect({ dir, objects: [...offline.keys()].sort() }).toEqual({ dir, objects: [...real.keys()].sort() });
      for (const [k, o] of offline) expect({ dir, k, o: normalise(o) }).toEqual({ dir, k, o: normalise(real.get(k)!) });
    }
  });

  it('a broken object fails validation (the check is real)', () => {
    const objs = buildKustomization(join(deployDir, 'base'));
    const hpa = structuredClone(find(objs, 'HorizontalPodAutoscaler', 'cota-rag')!);
    (hpa.spec as Record<string, unknown>).maxReplicas = 'many';
    expect(validateAll([hpa])).toHaveLength(1);
  });
});

describe('docker-compose.yml and Dockerfile', () => {
  const compose = readYamlDocs(join(ROOT, 'docker-compose.yml'))[0] as { services: Record<string, Record<string, unknown>> };

  it('has NATS, Postgres, Redis and the seven services from one image', () => {
    for (const name of ['nats', 'postgres', 'redis', ...SERVICES]) expect(compose.services[name]).toBeDefined();
    expect(compose.services.nats.command).toEqual(expect.arrayContaining(['-js', '-sd', '/data/jetstream'])); // the change events' stream
    const worker = compose.services['ingest-worker'].environment as Record<string, string>;
    expect(worker.NATS_PASSWORD).toBe((compose.services.nats.environment as Record<string, string>)[natsPasswordVariable('ingest-worker')]);
    for (const svc of SERVICES) {
      const s = compose.services[svc];
      expect(s.image).toBe('cota:local');
      expect(s.build).toMatchObject({ context: '.', dockerfile: 'Dockerfile' });
      expect(s.command).toEqual([svc]);
      const env = s.environment as Record<string, string>;
      expect(env).toMatchObject({ NATS_URL: 'nats://nats:4222', COTA_DATA_DIR: '/data/fii', NATS_USER: svc, HOST: '0.0.0.0', COTA_METRICS_HOST: '0.0.0.0' });
      expect(env.NATS_PASSWORD).toBe((compose.services.nats.environment as Record<string, string>)[natsPasswordVariable(svc)]);
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/.+@postgres:5432\//);
      expect(env.REDIS_URL).toBe('redis://redis:6379');
      expect((s.volumes as string[]).every((v) => v.endsWith(':/data/fii:ro'))).toBe(true);
      expect(JSON.stringify((s.healthcheck as { test: string[] }).test)).toMatch(svc === 'gateway' ? /health\/ready/ : new RegExp(`health.js","${svc}"`));
    }
    expect(compose.services.gateway.ports).toEqual(['3000:3000']);
  });

  it('traces go to an OpenTelemetry Collector and on to Jaeger; Prometheus and Grafana read the shipped rules and dashboard', () => {
    for (const svc of SERVICES) expect((compose.services[svc].environment as Record<string, string>).OTEL_EXPORTER_OTLP_ENDPOINT).toMatch(/http:\/\/otel-collector:4318\}?$/);
    expect(compose.services['otel-collector'].volumes).toContain('./deploy/observability/otel-collector.yaml:/etc/otelcol/config.yaml:ro');
    expect(compose.services.jaeger.ports).toContain('16686:16686');
    for (const name of ['otel-collector', 'jaeger', 'prometheus', 'grafana']) expect(String(compose.services[name].image)).toMatch(/:v?\d+\.\d+\.\d+$/); // pinned
    expect(compose.services.prometheus.volumes).toEqual(
      expect.arrayContaining([
        './deploy/observability/prometheus-compose.yaml:/etc/prometheus/prometheus.yml:ro',
        './deploy/observability/alerts.yaml:/etc/prometheus/alerts.yaml:ro',
      ]),
    );
    expect(compose.services.grafana.volumes).toContain('./deploy/observability/grafana-dashboard.json:/var/lib/grafana/dashboards/cota.json:ro');
    // Prometheus scrapes each service's metrics port, labelled like the Kubernetes scrape.
    const prom = readYamlDocs(join(ROOT, 'deploy', 'observability', 'prometheus-compose.yaml'))[0] as {
      scrape_configs: Array<{ static_configs: Array<{ targets: string[]; labels: { component: string } }> }>;
    };
    const targets = prom.scrape_configs[0].static_configs.map((c) => [c.labels.component, c.targets[0]]);
    expect(targets).toEqual(SERVICES.map((s) => [s, `${s}:${DEFAULT_METRICS_PORTS[s]}`]));
  });

  it('runs NATS with the generated users, every password from its environment', () => {
    const nats = compose.services.nats;
    expect((nats.command as string[]).slice(0, 2)).toEqual(['-c', '/etc/nats/nats.conf']);
    expect(nats.volumes).toContain('./deploy/nats/nats.conf:/etc/nats/nats.conf:ro');
    expect(Object.keys(nats.environment as object).sort()).toEqual(NATS_USERS.map(natsPasswordVariable).sort());
  });

  it('the Dockerfile is multi-stage, builds with npm ci, runs as non-root and never copies data', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect((dockerfile.match(/^FROM /gm) ?? []).length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/RUN npm ci/);
    expect(dockerfile).toMatch(/RUN npm run build/);
    expect(dockerfile).toMatch(/^USER 10001/m);
    expect(dockerfile).toMatch(/COTA_DATA_DIR=\/data\/fii/);
    const copies = dockerfile.split('\n').filter((l) => /^COPY /.test(l));
    expect(copies.some((l) => /data|shared/.test(l.replace(/--from=\w+/, '')))).toBe(false);
    // A release: built for any architecture from the build machine's, labelled with its version and commit.
    expect(dockerfile).toMatch(/^FROM --platform=\$BUILDPLATFORM \S+ AS build$/m);
    for (const arg of ['VERSION', 'GIT_SHA']) expect(dockerfile).toMatch(new RegExp(`^ARG ${arg}=`, 'm'));
    expect(dockerfile).toContain('org.opencontainers.image.version="${VERSION}"');
    expect(dockerfile).toContain('org.opencontainers.image.revision="${GIT_SHA}"');
    const ignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8');
    for (const entry of ['node_modules', 'dist', '.git', '*.csv']) expect(ignore.split('\n')).toContain(entry);
  });
});
