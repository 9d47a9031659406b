import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import { parse, stringify } from 'yaml';
import { ALL_BROADCASTS, ALL_RPCS, Events, NATS_USERS, natsPasswordVariable, renderNatsConfig, SERVICES } from '@cota/contracts';
import { repoRoot } from '@cota/config';
import { DEFAULT_METRICS_PORTS } from '@cota/service-kit';
import { buildAsyncApiDocument, channelId } from './asyncapi-model';
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

  it('overlay prod: valid, namespaced, patched, secret left to the operator', () => {
    const objs = buildKustomization(join(deployDir, 'overlays', 'prod'));
    expect(validateAll(objs)).toEqual([]);
    checkServices(objs, '0.1.0');
    expect(objs.every((o) => o.metadata.namespace === 'cota')).toBe(true);
    expect(find(objs, 'HorizontalPodAutoscaler', 'cota-gateway')!.spec).toMatchObject({ minReplicas: 3, maxReplicas: 20 });
    const executor = containersOf(find(objs, 'Deployment', 'cota-executor')!)[0] as Container & { resources: unknown; readinessProbe: unknown };
    expect(executor.resources).toEqual({ requests: { cpu: '500m', memory: '512Mi' }, limits: { cpu: '2', memory: '1Gi' } });
    expect(executor.readinessProbe).toBeDefined(); // the merge kept what the patch did not touch
    expect(find(objs, 'Secret', 'cota-secrets')).toBeUndefined();
    expect(objs.filter((o) => o.kind === 'Secret')).toEqual([]); // NATS passwords too: created by the operator
    expect(objs.filter((o) => o.kind === 'PodDisruptionBudget')).toHaveLength(SERVICES.length);
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
    const ignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8');
    for (const entry of ['node_modules', 'dist', '.git', '*.csv']) expect(ignore.split('\n')).toContain(entry);
  });
});
