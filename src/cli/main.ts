#!/usr/bin/env node
/** Entry point of the `standing` binary: runs the program and maps errors to exit statuses. */
import { readFileSync } from 'node:fs';
import { CommanderError } from 'commander';
import { StandingError, type ErrorCode } from '../errors.js';
import { loadScorerModules } from '../scorers/plugins.js';
import { buildProgram } from './program.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Every error code's exit status (docs/cli.md, Exit statuses), one per code (the type makes a new
 * code list itself here): 2 for a command line that cannot run as given, 1 for the rest. An
 * INTERNAL error (a bug) is thrown on, for Node to print with its stack and exit 1.
 */
const EXIT_STATUS: Readonly<Record<Exclude<ErrorCode, 'INTERNAL'>, 1 | 2>> = {
  USAGE_INVALID: 2,
  EVENT_SYNTAX: 1,
  EVENT_INVALID: 1,
  EVENT_CONFLICT: 1,
  PARAMETER_INVALID: 1,
  LABELS_INVALID: 1,
  INPUT_UNREADABLE: 1,
  BATCH_REJECTED: 1,
  BATCH_TOO_LARGE: 1,
  CONFIG_INVALID: 1,
  CHECKPOINT_CORRUPT: 1,
  STORE_BUSY: 1,
  STORE_HELD: 1,
  PLAYER_UNKNOWN: 1,
  APPLY_FAILED: 1,
  KEY_LABEL_INVALID: 2,
  SCORER_INVALID: 1,
  COMMAND_FAILED: 1,
  LISTEN_FAILED: 1,
  HISTORY_BUSY: 1,
  SERVICE_STOPPING: 1,
  PARTITION_FENCED: 1,
  COMMUNITY_OUTSIDE_PARTITION: 1,
  STREAM_MISMATCH: 1,
  STREAM_BEHIND: 1,
  NATS_UNREACHABLE: 1,
  CONSUMER_LOST: 1,
  LEASE_LOST: 1,
  NATS_SERVER_STOPPED: 1,
};

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

try {
  await loadScorerModules();
  const program = await buildProgram(version, process.argv);
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and --version exit 0; everything else commander refuses is a usage error.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof StandingError && error.code !== 'INTERNAL') {
    process.stderr.write(`standing: ${error.message}\n`);
    process.exitCode = EXIT_STATUS[error.code];
  } else {
    throw error;
  }
}
