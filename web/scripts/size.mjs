/* global console, process */
// `npm run size:web`: how much JavaScript the browser loads for `/`. Reads web/dist (build it first
// with `npm run build -w @kickstand/web`); builds nothing itself. Counts index.html's entry scripts and
// everything they import statically, not the lazy chunks behind import().
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const indexFile = path.join(dist, 'index.html');
if (!existsSync(indexFile)) {
  console.error('web/dist/index.html is missing: run `npm run build -w @kickstand/web` first.');
  process.exit(1);
}

const html = readFileSync(indexFile, 'utf8');
const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]);
if (entries.length === 0) {
  console.error('index.html has no module script.');
  process.exit(1);
}

// `import … from "./x.js"`, `import "./x.js"` and `export … from "./x.js"`; never `import("./x.js")`.
const staticImport = /(?:\bimport|\bexport)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g;

const toFile = (url, fromFile) =>
  url.startsWith('/') ? path.join(dist, url) : path.resolve(path.dirname(fromFile), url);

const seen = new Map();
const queue = entries.map((url) => toFile(url, indexFile));
while (queue.length > 0) {
  const file = queue.shift();
  if (seen.has(file)) continue;
  const code = readFileSync(file);
  seen.set(file, { raw: code.length, gzip: gzipSync(code, { level: 9 }).length });
  for (const match of code.toString('utf8').matchAll(staticImport)) queue.push(toFile(match[1], file));
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
let raw = 0;
let gzip = 0;
for (const [file, size] of seen) {
  raw += size.raw;
  gzip += size.gzip;
  console.log(
    `  ${path.relative(dist, file).padEnd(40)} ${kb(size.raw).padStart(10)}  gzip ${kb(size.gzip).padStart(9)}`,
  );
}
console.log(`JavaScript loaded for /: ${seen.size} files, ${kb(raw)} raw, ${kb(gzip)} gzip`);

// Issue 21: what `/` loads stays within 150 KB gzip.
const limitKb = 150;
if (gzip / 1024 > limitKb) {
  console.error(`over the ${limitKb} kB gzip budget for /: load more of it lazily (router.tsx, public.tsx)`);
  process.exit(1);
}
