/** The `standing` command line: one subcommand per file in ./commands. */
import { Command } from 'commander';
import { registerDemo } from './commands/demo.js';
import { registerEvaluate } from './commands/evaluate.js';
import { registerExplain } from './commands/explain.js';
import { registerImport } from './commands/import.js';
import { registerKeys } from './commands/keys.js';
import { registerRank } from './commands/rank.js';
import { registerServe } from './commands/serve.js';
import { registerSimulate } from './commands/simulate.js';
import { registerTune } from './commands/tune.js';

export function buildProgram(version: string): Command {
  const program = new Command('standing')
    .description('player-reputation engine: rank the players of an event log')
    .version(version)
    .showHelpAfterError('(run "standing help <command>" for usage)');
  registerRank(program);
  registerExplain(program);
  registerEvaluate(program);
  registerTune(program);
  registerSimulate(program);
  registerImport(program);
  registerDemo(program);
  registerServe(program);
  registerKeys(program);
  return program;
}
