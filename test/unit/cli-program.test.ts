/** The command line's program: a named subcommand alone is loaded; help and the rest get every one. */
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

const ALL = ['rank', 'explain', 'evaluate', 'tune', 'simulate', 'import', 'demo', 'serve', 'keys', 'erase', 'ingest', 'gateway', 'worker', 'cluster-local'];
const names = async (...args: string[]) => (await buildProgram('0.0.0', ['node', 'standing', ...args])).commands.map((command) => command.name());

describe('buildProgram', () => {
  it('registers only the subcommand the command line names', async () => {
    expect(await names('rank', 'cqr', 'log.ndjson')).toEqual(['rank']);
    expect(await names('simulate', 'chat-balance')).toEqual(['simulate']);
    expect(await names('serve', '--demo')).toEqual(['serve']);
  });

  it('registers every subcommand, in help order, for help, --version, no arguments or an unknown name', async () => {
    for (const args of [['help'], ['--help'], ['--version'], [], ['ranks']]) expect(await names(...args)).toEqual(ALL);
  });
});
