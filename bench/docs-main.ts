/**
 * `npm run bench:docs -- FILE`: rewrites the figures table of docs/benchmarks.md from the JSON
 * document `npm run bench -- --json FILE` wrote, or only the rows of a part from the document of
 * that part's command (`npm run bench:cluster -- --json FILE`, …; ./docs-table.ts). Exit 1 names
 * what is wrong with the file or the page; exit 2 is a usage error.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BenchDocsError, withFiguresTable } from './docs-table.js';
import { BenchDocumentError, parseBenchDocument } from './figures.js';

const PAGE = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));

let file: string;
try {
  const { positionals } = parseArgs({ args: process.argv.slice(2), options: {}, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new Error(positionals.length === 0 ? 'missing the bench JSON file' : 'one bench JSON file, please');
  file = positionals[0]!;
} catch (error) {
  process.stderr.write(`bench:docs: ${(error as Error).message}\nusage: npm run bench:docs -- FILE   (FILE from npm run bench[:service|:communities|:cluster|:scale] -- --json FILE)\n`);
  process.exit(2);
}

try {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new BenchDocsError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const document = parseBenchDocument(text, file);
  writeFileSync(PAGE, withFiguresTable(readFileSync(PAGE, 'utf8'), document));
  console.log(`docs/benchmarks.md: ${document.figures.length} figures from ${file} (${document.date})`);
} catch (error) {
  if (!(error instanceof BenchDocsError || error instanceof BenchDocumentError)) throw error;
  process.stderr.write(`bench:docs: ${error.message}\n`);
  process.exit(1);
}
