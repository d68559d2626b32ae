/**
 * The end of every bench command: the summary of its figures on standard output and, given
 * `--json FILE` (`npm run bench -- --json FILE`), the same figures as one JSON document
 * (./figures.ts), which `npm run bench:docs -- FILE` turns into the table of docs/benchmarks.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { benchDocument, type BenchDocument, type Figure, type Machine } from './figures.js';
import { heading } from './format.js';
import { renderSummary } from './summary.js';

/** The bench's own options: `--json FILE`. Anything else stops the bench before it starts. */
export function benchOptions(args: readonly string[] = process.argv.slice(2)): { readonly json?: string } {
  try {
    const { values } = parseArgs({ args: [...args], options: { json: { type: 'string' } }, strict: true, allowPositionals: false });
    return values.json === undefined ? {} : { json: values.json };
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\nusage: npm run bench[:service|:reads|:communities|:cluster] -- [--json FILE]\n`);
    process.exit(2);
  }
}

export function machine(): Machine {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
  };
}

/** Prints the summary, and writes the JSON document when `--json FILE` was given. */
export function finish(command: BenchDocument['command'], figures: readonly Figure[], options: { readonly json?: string }): void {
  console.log(heading('Summary'));
  console.log(renderSummary(figures));
  if (options.json !== undefined) {
    writeFileSync(options.json, `${JSON.stringify(benchDocument(command, machine(), figures), null, 2)}\n`);
    console.log(`\nfigures written to ${options.json}`);
  }
}
