/** `standing import FORMAT FILE`: converts a public data set into standing's NDJSON events on stdout. */
import type { Command } from 'commander';
import { createReadStream } from 'node:fs';
import type { StandingEvent } from '../../events/types.js';
import { openEventSource } from '../../events/ndjson.js';
import { importCollegeMsg } from '../../importers/college-msg.js';
import { importConda } from '../../importers/conda.js';
import { importSignedCsv } from '../../importers/signed-csv.js';
import { positiveNumber } from '../options.js';

/** Writes events as NDJSON (time as ISO-8601), waiting when stdout is full. */
async function writeEvents(batches: AsyncIterable<readonly StandingEvent[]>): Promise<void> {
  for await (const batch of batches) {
    const text = batch.map((e) => JSON.stringify({ ...e, time: new Date(e.time).toISOString() })).join('\n') + '\n';
    if (!process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
}

export function registerImport(program: Command): void {
  const command = program.command('import').description('convert a public data set into NDJSON events on standard output');
  command
    .command('college-msg')
    .description('SNAP CollegeMsg "SRC DST UNIXTS" lines → chat events (FILE, or - for stdin)')
    .argument('<file>')
    .option('--community <name>', 'community of the events')
    .action(async (file: string, options: { community?: string }) => {
      await writeEvents(importCollegeMsg(openEventSource(file), options.community));
    });
  command
    .command('bitcoin-otc')
    .description('SNAP Bitcoin OTC or Alpha signed CSV (rating −10..10, unix seconds) → rating events, value = rating / 10')
    .argument('<file>')
    .option('--community <name>', 'community of the events')
    .action(async (file: string, options: { community?: string }) => {
      await writeEvents(importSignedCsv(openEventSource(file), { scale: 10, community: options.community, idPrefix: 'bitcoin' }));
    });
  command
    .command('signed-csv')
    .description('"from,to,value[,time]" CSV (e.g. the Wikipedia election votes) → rating events, value / --scale')
    .argument('<file>')
    .option('--scale <n>', 'divide values by this to land in [−1, 1]', '1')
    .option('--community <name>', 'community of the events')
    .action(async (file: string, options: { scale: string; community?: string }) => {
      await writeEvents(importSignedCsv(openEventSource(file), { scale: positiveNumber(options.scale, '--scale'), community: options.community, idPrefix: 'signed' }));
    });
  command
    .command('conda')
    .description('CONDA Dota 2 chat CSV → chat events from each player to the others of the match (FILE, or - for stdin)')
    .argument('<file>')
    .option('--community <name>', 'community of the events')
    .action(async (file: string, options: { community?: string }) => {
      const stream = file === '-' ? process.stdin : createReadStream(file);
      await writeEvents(importConda(stream, file === '-' ? 'stdin' : file, options.community));
    });
}
