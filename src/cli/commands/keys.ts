/**
 * `standing keys create|list|revoke`: API keys in the store; a new key is printed once. The store's
 * modules are imported when a subcommand runs (`withStore`), not when `--help` registers it.
 */
import type { Command } from 'commander';
import { createKey, DEMO_KEY_LABELS, RULE_LABEL_PREFIX, SCOPES } from '../../service/keys.js';
import type { EventStore, Scope } from '../../store/types.js';
import { renderTable } from '../../util/text-table.js';
import { UsageError } from '../errors.js';
import { configFlags } from './serve.js';

interface StoreFlags {
  readonly config?: string;
  readonly db?: string;
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
      .requiredOption('--scope <scopes>', `comma-separated: ${SCOPES.join(', ')} (moderate includes read; admin allows everything)`)
      .option('--label <text>', 'what the key is for; a moderate key acts under it in the audit log (at most 128 characters)', ''),
  ).action(async (flags: StoreFlags & { scope: string; label: string }) => {
    const scopes = readScopes(flags.scope);
    if (flags.label.length > 128) throw new UsageError(`--label: ${flags.label.length} characters; a label holds at most 128 (it names the moderator in moderator events)`);
    if ((Object.values(DEMO_KEY_LABELS) as string[]).includes(flags.label)) throw new UsageError(`--label: "${flags.label}" is reserved for the keys serve --demo makes and revokes`);
    if (flags.label.trim().startsWith(RULE_LABEL_PREFIX)) throw new UsageError(`--label: "${flags.label}" starts with "${RULE_LABEL_PREFIX}", which names the moderation rules' own events; a key cannot act as a rule`);
    await createKeyCommand(flags, scopes);
  });
  configFlags(keys.command('list').description('list keys (ids, scopes, labels; never secrets)')).action(listKeysCommand);
  configFlags(keys.command('revoke').description('revoke a key by id').argument('<id>', 'the key id (the part after stk_)')).action(async (id: string, flags: StoreFlags) => {
    if (!(await revokeKeyCommand(flags, id))) throw new UsageError(`no active key "${id}"`);
    process.stdout.write(`key ${id} revoked\n`);
  });
}

async function withStore<T>(flags: StoreFlags, body: (store: EventStore) => Promise<T>): Promise<T> {
  const { loadConfig } = await import('../../service/load-config.js');
  const { openStore } = await import('../../store/open.js');
  const config = loadConfig({ config: flags.config, db: flags.db });
  const store = await openStore(config.db);
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

/** Creates a key and prints it (stdout) and what it allows (stderr). */
async function createKeyCommand(flags: StoreFlags & { label: string }, scopes: readonly Scope[]): Promise<void> {
  const { key, stored } = await withStore(flags, (store) => createKey(store, scopes, flags.label));
  process.stdout.write(`${key}\n`);
  process.stderr.write(`key ${stored.id} (${stored.scopes.join(', ')}) created; it is not shown again\n`);
}

async function listKeysCommand(flags: StoreFlags): Promise<void> {
  const list = await withStore(flags, (store) => store.listKeys());
  process.stdout.write(
    `${renderTable(
      [{ title: 'id' }, { title: 'scopes' }, { title: 'label' }, { title: 'created' }, { title: 'revoked' }],
      list.map((k) => [k.id, k.scopes.join(','), k.label, k.createdAt, k.revokedAt ?? '']),
    )}\n`,
  );
}

/** Revokes a key; false when there is no active key with that id. */
async function revokeKeyCommand(flags: StoreFlags, id: string): Promise<boolean> {
  return withStore(flags, (store) => store.revokeKey(id, new Date().toISOString()));
}
