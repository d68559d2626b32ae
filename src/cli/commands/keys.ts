/** `standing keys create|list|revoke`: API keys in the store; a new key is printed once. */
import type { Command } from 'commander';
import { DEMO_KEY_LABELS, SCOPES } from '../../service/keys.js';
import type { Scope } from '../../store/types.js';
import { UsageError } from '../usage-error.js';
import { configFlags } from './serve.js';

function readScopes(text: string): Scope[] {
  const scopes = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const scope of scopes) {
    if (!(SCOPES as readonly string[]).includes(scope)) throw new UsageError(`--scope: "${scope}" is not one of ${SCOPES.join(', ')}`);
  }
  if (scopes.length === 0) throw new UsageError(`--scope: name at least one of ${SCOPES.join(', ')}`);
  return scopes as Scope[];
}

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('manage API keys (stored hashed; a key is shown once, when created)');
  configFlags(
    keys
      .command('create')
      .description('create a key and print it')
      .requiredOption('--scope <scopes>', `comma-separated: ${SCOPES.join(', ')} (moderate includes read; admin allows everything)`)
      .option('--label <text>', 'what the key is for; a moderate key acts under it in the audit log (at most 128 characters)', ''),
  ).action(async (flags: { scope: string; label: string; config?: string; db?: string }) => {
    const scopes = readScopes(flags.scope);
    if (flags.label.length > 128) throw new UsageError(`--label: ${flags.label.length} characters; a label holds at most 128 (it names the moderator in moderator events)`);
    if ((Object.values(DEMO_KEY_LABELS) as string[]).includes(flags.label)) throw new UsageError(`--label: "${flags.label}" is reserved for the keys serve --demo makes and revokes`);
    const { createKeyCommand } = await import('../service/keys.js');
    await createKeyCommand(flags, scopes);
  });
  configFlags(keys.command('list').description('list keys (ids, scopes, labels; never secrets)')).action(async (flags: { config?: string; db?: string }) => {
    const { listKeysCommand } = await import('../service/keys.js');
    await listKeysCommand(flags);
  });
  configFlags(keys.command('revoke').description('revoke a key by id').argument('<id>', 'the key id (the part after stk_)')).action(
    async (id: string, flags: { config?: string; db?: string }) => {
      const { revokeKeyCommand } = await import('../service/keys.js');
      if (!(await revokeKeyCommand(flags, id))) throw new UsageError(`no active key "${id}"`);
      process.stdout.write(`key ${id} revoked\n`);
    },
  );
}
