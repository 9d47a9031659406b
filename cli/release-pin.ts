import { readFileSync, writeFileSync } from 'node:fs';
import { parseDocument, YAMLMap, YAMLSeq } from 'yaml';

/** An image digest as registries report it. */
export const DIGEST_RE = /^sha256:[0-9a-f]{64}$/;

/**
 * Points a kustomization's `cota` image at a released build by digest (newName = the registry's image,
 * digest = what the push reported; the tag goes). Comments and layout of the file are kept.
 */
export function pinImage(kustomization: string, image: string, digest: string): string {
  if (!DIGEST_RE.test(digest)) throw new Error(`not an image digest: '${digest}'`);
  if (!/^[a-z0-9.-]+(:\d+)?\/[a-z0-9._/-]+$/.test(image)) throw new Error(`not an image name with a registry: '${image}'`);
  const doc = parseDocument(kustomization);
  const images = doc.get('images') as YAMLSeq<YAMLMap> | undefined;
  const entry = images?.items.find((i) => i.get('name') === 'cota');
  if (!entry) throw new Error('the kustomization has no images entry named cota');
  entry.set('newName', image);
  entry.delete('newTag');
  entry.set('digest', digest);
  return doc.toString();
}

/** `node dist/cli/release-pin.js <kustomization.yaml> <registry>/cota sha256:<digest>` (tools/release.sh). */
function main(): void {
  const [file, image, digest] = process.argv.slice(2);
  if (!file || !image || !digest) {
    process.stderr.write('uso: release-pin <kustomization.yaml> <registro>/cota sha256:<digest>\n');
    process.exit(2);
  }
  writeFileSync(file, pinImage(readFileSync(file, 'utf8'), image, digest));
  process.stdout.write(`${file}: cota → ${image}@${digest}\n`);
}

if (require.main === module) main();
