/** What `standing keys` does, loaded only when it runs (it opens the store). */
import { loadConfig } from '../../service/load-config.js';
import { createKey } from '../../service/keys.js';
import { openStore } from '../../store/open.js';
import type { EventStore, Scope } from '../../store/types.js';
import { renderTable } from '../../util/text-table.js';

interface StoreFlags {
  readonly config?: string;
  readonly db?: string;
}

async function withStore<T>(flags: StoreFlags, body: (store: EventStore) => Promise<T>): Promise<T> {
  const config = loadConfig({ config: flags.config, db: flags.db });
  const store = await openStore(config.db);
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

/** Creates a key and prints it (stdout) and what it allows (stderr). */
export async function createKeyCommand(flags: StoreFlags & { label: string }, scopes: readonly Scope[]): Promise<void> {
  const { key, stored } = await withStore(flags, (store) => createKey(store, scopes, flags.label));
  process.stdout.write(`${key}\n`);
  process.stderr.write(`key ${stored.id} (${stored.scopes.join(', ')}) created; it is not shown again\n`);
}

export async function listKeysCommand(flags: StoreFlags): Promise<void> {
  const list = await withStore(flags, (store) => store.listKeys());
  process.stdout.write(
    `${renderTable(
      [{ title: 'id' }, { title: 'scopes' }, { title: 'label' }, { title: 'created' }, { title: 'revoked' }],
      list.map((k) => [k.id, k.scopes.join(','), k.label, k.createdAt, k.revokedAt ?? '']),
    )}\n`,
  );
}

/** Revokes a key; false when there is no active key with that id. */
export async function revokeKeyCommand(flags: StoreFlags, id: string): Promise<boolean> {
  return withStore(flags, (store) => store.revokeKey(id, new Date().toISOString()));
}
