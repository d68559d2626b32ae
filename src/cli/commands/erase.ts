/**
 * `standing erase PLAYER`: erases a player from the service's store, as DELETE /v1/players/:id does.
 * When it runs (`erase`, which imports the store and the service then, not when `--help` registers
 * it) it opens the configured store, holds it alone (EventStore.hold: refused while a service or a
 * cluster worker runs on it, whose memory would bring the player back), loads it with the
 * configured scorers (the checkpoints it rewrites are theirs), erases the player through the same
 * LiveEngine.erase the API's DELETE /v1/players/:id runs, and closes. A player no stored event is
 * by or about is an error.
 */
import type { Command } from 'commander';
import type { LiveEngine } from '../../service/live-engine.js';
import type { StoreHold } from '../../store/types.js';
import { configFlags } from './serve.js';

export function registerErase(program: Command): void {
  configFlags(
    program
      .command('erase')
      .description("erase a player from the service's store (every event naming them; the communities they were in are recomputed)")
      .argument('<player>', 'the player id')
      .option('--defences <setting>', 'recommended or published, as the service runs (its checkpoints are rewritten; also STANDING_DEFENCES)'),
  ).action(erase);
}

async function erase(player: string, flags: { config?: string; db?: string; defences?: string }): Promise<void> {
  const { BUILTIN_DOMAINS } = await import('../../quality/index.js');
  const { erasedOrUnknown } = await import('../../service/erased-or-unknown.js');
  const { loadConfig } = await import('../../service/load-config.js');
  const { LiveEngine } = await import('../../service/live-engine.js');
  const { configuredInstances } = await import('../../service/config.js');
  const { openStore } = await import('../../store/open.js');
  const config = loadConfig({ config: flags.config, db: flags.db, defences: flags.defences });
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
