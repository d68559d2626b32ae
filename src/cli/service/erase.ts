/**
 * What `standing erase` does, loaded only when it runs: opens the configured store with the
 * configured scorers (the checkpoints it rewrites are theirs), erases the player through the
 * same LiveEngine.erase the API's DELETE /v1/players/:id runs, and closes.
 */
import { BUILTIN_DOMAINS } from '../../quality/index.js';
import { loadConfig } from '../../service/load-config.js';
import { LiveEngine } from '../../service/live-engine.js';
import { configuredInstances } from '../../service/service.js';
import { openStore } from '../../store/open.js';

export async function eraseCommand(flags: { config?: string; db?: string }, player: string): Promise<void> {
  const config = loadConfig({ config: flags.config, db: flags.db });
  const store = await openStore(config.db);
  let live: LiveEngine;
  try {
    live = await LiveEngine.open({ store, instances: configuredInstances(config), quality: { domains: BUILTIN_DOMAINS, options: config.quality } });
  } catch (error) {
    await store.close();
    throw error;
  }
  try {
    const outcome = await live.erase(player);
    const where = outcome.communities.length === 0 ? 'no community' : `communities ${outcome.communities.join(', ')}`;
    process.stdout.write(`player "${player}" erased: ${outcome.removed} events removed, ${outcome.rewritten} rewritten (${where} recomputed)\n`);
  } finally {
    await live.close();
  }
}
