#!/usr/bin/env node
/** Entry point of the `standing` binary: runs the program and maps errors to exit statuses. */
import { readFileSync } from 'node:fs';
import { CommanderError } from 'commander';
import { StandingError } from '../errors.js';
import { CommandError } from './command-error.js';
import { buildProgram } from './program.js';
import { UsageError } from './usage-error.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

try {
  const program = await buildProgram(version, process.argv);
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and --version exit 0; everything else commander refuses is a usage error.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof UsageError) {
    process.stderr.write(`standing: ${error.message}\n`);
    process.exitCode = 2;
  } else if (error instanceof StandingError || error instanceof CommandError) {
    process.stderr.write(`standing: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
