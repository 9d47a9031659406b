import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** A Kubernetes object as parsed from YAML. */
export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; [k: string]: unknown };

type Json = unknown;

interface Kustomization {
  kind?: string;
  resources?: string[];
  components?: string[];
  patches?: Array<{ path?: string; patch?: string; target?: { kind?: string; name?: string } }>;
  namespace?: string;
  labels?: Array<{ pairs: Record<string, string> }>;
  images?: Array<{ name: string; newName?: string; newTag?: string; digest?: string }>;
}

/** Every YAML document of a file, failing on any parse error. */
export function readYamlDocs(path: string): Json[] {
  const docs = parseAllDocuments(readFileSync(path, 'utf8'), { merge: true });
  const out: Json[] = [];
  for (const d of docs) {
    if (d.errors.length) throw new Error(`${path}: ${d.errors[0].message}`);
    const value = d.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

const MERGE_KEYS: Record<string, string> = { containers: 'name', initContainers: 'name', volumes: 'name', volumeMounts: 'name', env: 'name', ports: 'name' };

/** Strategic merge, the subset kustomize applies to the fields our patches touch. */
export function strategicMerge(base: Json, patch: Json, key?: string): Json {
  if (patch === null) return undefined;
  if (Array.isArray(patch)) {
    const mergeKey = key ? MERGE_KEYS[key] : undefined;
    if (!mergeKey || !Array.isArray(base)) return patch;
    const out = [...(base as Array<Record<string, unknown>>)];
    for (const item of patch as Array<Record<string, unknown>>) {
      const i = out.findIndex((b) => b[mergeKey] === item[mergeKey]);
      if (i >= 0) out[i] = strategicMerge(out[i], item) as Record<string, unknown>;
      else out.push(item);
    }
    return out;
  }
  if (typeof patch === 'object' && typeof base === 'object' && base !== null && !Array.isArray(base)) {
    const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
      const merged = strategicMerge(out[k], v, k);
      if (merged === undefined) delete out[k];
      else out[k] = merged;
    }
    return out;
  }
  return patch;
}

/** RFC 6902 add/replace/remove on a JSON pointer. */
export function jsonPatch(obj: Json, ops: Array<{ op: string; path: string; value?: Json }>): Json {
  const root = structuredClone(obj) as Record<string, unknown>;
  for (const op of ops) {
    const parts = op.path
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = parts.pop()!;
    let cur: Record<string, unknown> | unknown[] = root;
    for (const p of parts) {
      const next: unknown = Array.isArray(cur) ? cur[Number(p)] : cur[p];
      if (next === undefined || next === null || typeof next !== 'object') throw new Error(`json patch: path ${op.path} does not exist`);
      cur = next as Record<string, unknown>;
    }
    if (op.op === 'remove') {
      if (Array.isArray(cur)) cur.splice(Number(last), 1);
      else delete cur[last];
    } else if (op.op === 'add' || op.op === 'replace') {
      if (op.op === 'replace' && (Array.isArray(cur) ? cur[Number(last)] : cur[last]) === undefined) throw new Error(`json patch: cannot replace missing ${op.path}`);
      if (Array.isArray(cur)) {
        if (last === '-') cur.push(op.value);
        else if (op.op === 'add') cur.splice(Number(last), 0, op.value);
        else cur[Number(last)] = op.value;
      } else cur[last] = op.value;
    } else throw new Error(`json patch: op '${op.op}' is not supported`);
  }
  return root;
}

function podSpecs(obj: K8sObject): Array<Record<string, unknown>> {
  const spec = obj.spec as Record<string, unknown> | undefined;
  const template = spec?.template as { spec?: Record<string, unknown> } | undefined;
  return template?.spec ? [template.spec] : [];
}

/** Builds a kustomization folder the way `kustomize build` does, for the features this repo uses. */
export function buildKustomization(dir: string): K8sObject[] {
  const file = join(dir, 'kustomization.yaml');
  if (!existsSync(file)) throw new Error(`${dir} has no kustomization.yaml`);
  const k = readYamlDocs(file)[0] as Kustomization;
  const known = new Set(['apiVersion', 'kind', 'resources', 'components', 'patches', 'namespace', 'labels', 'images']);
  for (const key of Object.keys(k)) if (!known.has(key)) throw new Error(`${file}: field '${key}' is not handled by the offline build`);

  let objs: K8sObject[] = [];
  for (const r of k.resources ?? []) {
    const path = join(dir, r);
    if (!existsSync(path)) throw new Error(`${file}: resource ${r} does not exist`);
    objs.push(...(statSync(path).isDirectory() ? buildKustomization(path) : (readYamlDocs(path) as K8sObject[])));
  }
  // Components (kind: Component) add their resources and patch what the kustomization has so far.
  for (const c of k.components ?? []) objs = applyComponent(join(dir, c), objs);
  objs = applyPatches(file, dir, k, objs);
  return transform(k, objs);
}

function applyComponent(dir: string, objs: K8sObject[]): K8sObject[] {
  const file = join(dir, 'kustomization.yaml');
  const c = readYamlDocs(file)[0] as Kustomization;
  if (c.kind !== 'Component') throw new Error(`${file}: a component must be kind Component`);
  for (const key of Object.keys(c))
    if (!['apiVersion', 'kind', 'resources', 'patches'].includes(key)) throw new Error(`${file}: field '${key}' is not handled by the offline build`);
  const added = (c.resources ?? []).flatMap((r) => readYamlDocs(join(dir, r)) as K8sObject[]);
  return applyPatches(file, dir, c, [...objs, ...added]);
}

function applyPatches(file: string, dir: string, k: Kustomization, input: K8sObject[]): K8sObject[] {
  let objs = input;
  for (const p of k.patches ?? []) {
    const text = p.path ? readFileSync(join(dir, p.path), 'utf8') : p.patch;
    if (!text) throw new Error(`${file}: a patch has neither path nor patch`);
    const docs = parseAllDocuments(text)
      .map((d) => d.toJS() as Json)
      .filter((d) => d !== null && d !== undefined);
    const doc = docs[0];
    if (Array.isArray(doc)) {
      if (!p.target) throw new Error(`${file}: a JSON6902 patch needs a target`);
      const matches = objs.filter((o) => (!p.target!.kind || o.kind === p.target!.kind) && (!p.target!.name || o.metadata.name === p.target!.name));
      if (!matches.length) throw new Error(`${file}: patch target ${JSON.stringify(p.target)} matches nothing`);
      objs = objs.map((o) => (matches.includes(o) ? (jsonPatch(o, doc as Array<{ op: string; path: string }>) as K8sObject) : o));
    } else {
      // A strategic-merge patch file may hold several documents, one object each.
      for (const patch of docs as K8sObject[]) {
        const kind = p.target?.kind ?? patch.kind;
        const name = p.target?.name ?? patch.metadata?.name;
        const idx = objs.findIndex((o) => o.kind === kind && o.metadata.name === name);
        if (idx < 0) throw new Error(`${file}: patch ${p.path ?? ''} targets ${kind}/${name}, which is not in the resources`);
        objs[idx] = strategicMerge(objs[idx], patch) as K8sObject;
      }
    }
  }
  return objs;
}

/** Namespace, labels and images of a kustomization, over everything it built. */
function transform(k: Kustomization, objs: K8sObject[]): K8sObject[] {
  for (const o of objs) {
    if (k.namespace) o.metadata = { ...o.metadata, namespace: k.namespace };
    for (const l of k.labels ?? []) o.metadata = { ...o.metadata, labels: { ...(o.metadata.labels ?? {}), ...l.pairs } };
    for (const spec of podSpecs(o)) {
      for (const c of (spec.containers as Array<{ image?: string }>) ?? []) {
        for (const img of k.images ?? []) {
          const [name] = (c.image ?? '').split(/[:@]/);
          // A digest pins the image (newName@sha256:...), as kustomize writes it; else a tag.
          if (name === img.name) c.image = img.digest ? `${img.newName ?? img.name}@${img.digest}` : `${img.newName ?? img.name}:${img.newTag ?? 'latest'}`;
        }
      }
    }
  }
  return objs;
}
