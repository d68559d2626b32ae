/** `standing ingest FILE --url URL`: sends an NDJSON log (or stdin) to a running service, in batches within its limits. */
import type { Command } from 'commander';
import { positiveInteger } from '../options.js';
import { UsageError } from '../errors.js';

interface IngestFlags {
  readonly url: string;
  readonly key?: string;
  readonly batch?: string;
  readonly retries: string;
}

/** The service's base URL, checked: http or https, no trailing slash. */
function serviceUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url expects the service's URL, e.g. http://127.0.0.1:8080, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url expects an http or https URL, got "${text}"`);
  return url.href.replace(/\/+$/, '');
}

function retries(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--retries expects a whole number ≥ 0, got "${text}"`);
  return n;
}

export function registerIngest(program: Command): void {
  program
    .command('ingest')
    .description('send an NDJSON event log (FILE, or - for stdin) to a running service, in batches within its limits')
    .argument('<file>')
    .requiredOption('--url <url>', 'the service, e.g. http://127.0.0.1:8080')
    .option('--key <key>', 'an API key with the ingest scope (default STANDING_KEY)')
    .option('--batch <n>', "events per batch at most (default and ceiling: the service's maxBatchEvents)")
    .option('--retries <n>', 'tries again of a batch the service asks to wait with (429, 503) or whose connection fails', '5')
    .action(async (file: string, flags: IngestFlags) => {
      const key = flags.key ?? process.env.STANDING_KEY;
      if (key === undefined || key === '') throw new UsageError('ingest needs a key with the ingest scope: --key or STANDING_KEY');
      const request = {
        file,
        url: serviceUrl(flags.url),
        key,
        retries: retries(flags.retries),
        ...(flags.batch === undefined ? {} : { batch: positiveInteger(flags.batch, '--batch') }),
      };
      const { ingestCommand } = await import('../ingest/run.js');
      await ingestCommand(request);
    });
}
