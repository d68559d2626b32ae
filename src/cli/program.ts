/** The `standing` command line: one subcommand per file in ./commands. */
import { Command } from 'commander';

type Register = (program: Command) => void;

/** Each subcommand's module, loaded only when the program needs it; in help order. */
const COMMANDS: readonly (readonly [name: string, load: () => Promise<Register>])[] = [
  ['rank', async () => (await import('./commands/rank.js')).registerRank],
  ['explain', async () => (await import('./commands/explain.js')).registerExplain],
  ['evaluate', async () => (await import('./commands/evaluate.js')).registerEvaluate],
  ['tune', async () => (await import('./commands/tune.js')).registerTune],
  ['simulate', async () => (await import('./commands/simulate.js')).registerSimulate],
  ['backtest', async () => (await import('./commands/backtest.js')).registerBacktest],
  ['import', async () => (await import('./commands/import.js')).registerImport],
  ['demo', async () => (await import('./commands/demo.js')).registerDemo],
  ['serve', async () => (await import('./commands/serve.js')).registerServe],
  ['keys', async () => (await import('./commands/keys.js')).registerKeys],
  ['erase', async () => (await import('./commands/erase.js')).registerErase],
  ['ingest', async () => (await import('./commands/ingest.js')).registerIngest],
  ['gateway', async () => (await import('./commands/cluster.js')).registerGateway],
  ['worker', async () => (await import('./commands/cluster.js')).registerWorker],
  ['cluster-local', async () => (await import('./commands/cluster-local.js')).registerClusterLocal],
];

/**
 * The program for the command line `argv` (node, script, arguments). Loading every
 * subcommand's modules (formats, evaluation, tuning, simulations, importers) took about 30 ms
 * more than loading one, so when `argv` names a subcommand only that one is registered; help,
 * `--version` and anything else get them all.
 */
export async function buildProgram(version: string, argv: readonly string[]): Promise<Command> {
  const program = new Command('standing')
    .description('player-reputation engine: rank the players of an event log')
    .version(version)
    .showHelpAfterError('(run "standing help <command>" for usage)')
    // Set before the subcommands are added, so they inherit it: a usage error reads
    // `standing: …` like every other error, and ends in a CommanderError main.ts maps to exit 2.
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'standing: ')) });
  const named = COMMANDS.find(([name]) => name === argv[2]);
  for (const [, load] of named === undefined ? COMMANDS : [named]) (await load())(program);
  return program;
}
