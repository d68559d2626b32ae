/**
 * Scorers of one's own for the command line and the service: `STANDING_SCORERS` names modules
 * (file paths, relative to the working directory, or package names; comma-separated), each
 * exporting `scorerModule`, a ScorerModule (module.ts). They are loaded and registered before
 * anything runs: by `standing` (every command, so `serve`, `gateway` and `worker` too) and by a
 * service's history threads, which share the process's environment.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { registerScorer, ScorerInvalidError } from './index.js';
import type { ScorerModule } from './module.js';

export const SCORER_MODULES_VARIABLE = 'STANDING_SCORERS';

/** Loads and registers the modules `STANDING_SCORERS` names; the ids registered, in order. */
export async function loadScorerModules(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const specifiers = (env[SCORER_MODULES_VARIABLE] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  const ids: string[] = [];
  for (const specifier of specifiers) {
    const url = specifier.startsWith('.') || isAbsolute(specifier) ? pathToFileURL(resolve(specifier)).href : specifier;
    let loaded: { scorerModule?: ScorerModule };
    try {
      loaded = (await import(url)) as { scorerModule?: ScorerModule };
    } catch (error) {
      throw new ScorerInvalidError(`${SCORER_MODULES_VARIABLE}: cannot load ${specifier}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (loaded.scorerModule === undefined) throw new ScorerInvalidError(`${SCORER_MODULES_VARIABLE}: ${specifier} exports no scorerModule`);
    registerScorer(loaded.scorerModule);
    ids.push(loaded.scorerModule.scorer.id);
  }
  return ids;
}
