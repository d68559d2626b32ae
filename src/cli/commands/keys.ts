/** `standing keys create|list|revoke`: API keys in the store; a new key is printed once. */
import type { Command } from 'commander';
import { loadConfig } from '../../service/config.js';
import { SCOPES, createKey } from '../../service/keys.js';
import { openStore } from '../../store/open.js';
import type { EventStore, Scope } from '../../store/types.js';
import { renderTable } from '../format/table.js';
import { UsageError } from '../usage-error.js';
import { configFlags } from './serve.js';

async function withStore<T>(flags: { config?: string; db?: string }, body: (store: EventStore) => Promise<T>): Promise<T> {
  const config = loadConfig({ config: flags.config, db: flags.db });
  const store = await openStore(config.db);
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

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
      .requiredOption('--scope <scopes>', `comma-separated: ${SCOPES.join(', ')} (admin allows everything)`)
      .option('--label <text>', 'what the key is for', ''),
  ).action(async (flags: { scope: string; label: string; config?: string; db?: string }) => {
    const scopes = readScopes(flags.scope);
    const { key, stored } = await withStore(flags, (store) => createKey(store, scopes, flags.label));
    process.stdout.write(`${key}\n`);
    process.stderr.write(`key ${stored.id} (${stored.scopes.join(', ')}) created; it is not shown again\n`);
  });
  configFlags(keys.command('list').description('list keys (ids, scopes, labels; never secrets)')).action(async (flags: { config?: string; db?: string }) => {
    const list = await withStore(flags, (store) => store.listKeys());
    process.stdout.write(
      `${renderTable(
        [{ title: 'id' }, { title: 'scopes' }, { title: 'label' }, { title: 'created' }, { title: 'revoked' }],
        list.map((k) => [k.id, k.scopes.join(','), k.label, k.createdAt, k.revokedAt ?? '']),
      )}\n`,
    );
  });
  configFlags(keys.command('revoke').description('revoke a key by id').argument('<id>', 'the key id (the part after stk_)')).action(
    async (id: string, flags: { config?: string; db?: string }) => {
      const revoked = await withStore(flags, (store) => store.revokeKey(id, new Date().toISOString()));
      if (!revoked) throw new UsageError(`no active key "${id}"`);
      process.stdout.write(`key ${id} revoked\n`);
    },
  );
}
