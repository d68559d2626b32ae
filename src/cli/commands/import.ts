/** `standing import FORMAT FILE`: converts a public data set into standing's NDJSON events on stdout. */
import type { Command } from 'commander';
import { createReadStream } from 'node:fs';
import type { StandingEvent } from '../../events/types.js';
import { openEventSource } from '../../events/ndjson.js';
import { importCollegeMsg } from '../../importers/college-msg.js';
import { importConda } from '../../importers/conda.js';

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
    .command('conda')
    .description('CONDA Dota 2 chat CSV → chat events from each player to the others of the match (FILE, or - for stdin)')
    .argument('<file>')
    .option('--community <name>', 'community of the events')
    .action(async (file: string, options: { community?: string }) => {
      const stream = file === '-' ? process.stdin : createReadStream(file);
      await writeEvents(importConda(stream, file === '-' ? 'stdin' : file, options.community));
    });
}
