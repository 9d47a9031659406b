import * as yauzl from 'yauzl';
import { IngestError } from './csv';

/** Every file of a zip archive, read as published (no extraction to disk). */
export async function readZip(path: string, shownAs: string): Promise<Map<string, Buffer>> {
  return readEntries(shownAs, (cb) => yauzl.open(path, { lazyEntries: true }, cb));
}

/** The same for an archive held in memory (a file downloaded by a live feed). */
export async function readZipBuffer(buf: Buffer, shownAs: string): Promise<Map<string, Buffer>> {
  return readEntries(shownAs, (cb) => yauzl.fromBuffer(buf, { lazyEntries: true }, cb));
}

type OpenZip = (cb: (err: Error | null, zip?: yauzl.ZipFile) => void) => void;

function readEntries(shownAs: string, open: OpenZip): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  return new Promise((resolve, reject) => {
    const fail = (e: Error) => reject(new IngestError(shownAs, null, `cannot read zip: ${e.message}`));
    open((err, zip) => {
      if (err || !zip) return fail(err ?? new Error('no archive'));
      zip.on('error', fail);
      zip.on('end', () => resolve(out));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (e2, stream) => {
          if (e2 || !stream) return fail(e2 ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', fail);
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
