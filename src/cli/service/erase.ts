/**
 * What `standing erase` does, loaded only when it runs: opens the configured store, holds it
 * alone (EventStore.hold: refused while a service or a cluster worker runs on it, whose memory
 * would bring the player back), loads it with the configured scorers (the checkpoints it rewrites
 * are theirs), erases the player through the same LiveEngine.erase the API's
 * DELETE /v1/players/:id runs, and closes. A player no stored event is by or about is an error.
 */
import { BUILTIN_DOMAINS } from '../../quality/index.js';
import { erasedOrUnknown } from '../../service/erased-or-unknown.js';
import { loadConfig } from '../../service/load-config.js';
import { LiveEngine } from '../../service/live-engine.js';
import { configuredInstances } from '../../service/config.js';
import { openStore } from '../../store/open.js';
import type { StoreHold } from '../../store/types.js';

export async function eraseCommand(flags: { config?: string; db?: string }, player: string): Promise<void> {
  const config = loadConfig({ config: flags.config, db: flags.db });
  const store = await openStore(config.db);
  let hold: StoreHold | undefined;
  let live: LiveEngine | undefined;
  try {
    hold = await store.hold('erase');
    live = await LiveEngine.open({ store, instances: configuredInstances(config), quality: { domains: BUILTIN_DOMAINS, options: config.quality } });
    const outcome = erasedOrUnknown(player, await live.erase(player));
    const where = outcome.communities.length === 0 ? 'no community' : `communities ${outcome.communities.join(', ')}`;
    process.stdout.write(`player "${player}" erased: ${outcome.removed} events removed, ${outcome.rewritten} rewritten (${where} recomputed)\n`);
  } finally {
    // The engine closes the store; the hold goes last, once nothing more will be written.
    await (live === undefined ? store.close() : live.close());
    await hold?.release();
  }
}
