/** `standing erase PLAYER`: erases a player from the service's store, as DELETE /v1/players/:id does. */
import type { Command } from 'commander';
import { configFlags } from './serve.js';

export function registerErase(program: Command): void {
  configFlags(
    program
      .command('erase')
      .description("erase a player from the service's store (every event naming them; the communities they were in are recomputed)")
      .argument('<player>', 'the player id'),
  ).action(async (player: string, flags: { config?: string; db?: string }) => {
    const { eraseCommand } = await import('../service/erase.js');
    await eraseCommand(flags, player);
  });
}
