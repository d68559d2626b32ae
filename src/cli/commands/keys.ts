/**
 * `standing keys create|list|revoke`: API keys in the store; a new key is printed once. The store's
 * modules are imported when a subcommand runs (`withStore`), not when `--help` registers it.
 */
import type { Command } from 'commander';
import { idCharacterProblem, shownText } from '../../events/id-characters.js';
import { communitiesProblem, createKey, DEMO_KEY_LABELS, labelProblem, RULE_MODERATOR_PREFIX, SCOPES } from '../../service/keys.js';
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
      .requiredOption('--scope <scopes>', `comma-separated: ${SCOPES.join(', ')} (moderate includes read and player-view; senior includes moderate; admin allows everything)`)
      .option('--label <text>', 'what the key is for; a moderate key acts under it in the audit log (at most 128 characters, no control, format or line-separator character, not the label of a live key, not beginning with rule:)', '')
      .option('--community <name>', 'restrict the key to this community (repeat for several); every other community is refused 403', (name: string, list: string[]) => [...list, name], [] as string[]),
  ).action(async (flags: StoreFlags & { scope: string; label: string; community: string[] }) => {
    const scopes = readScopes(flags.scope);
    if (flags.label.length > 128) throw new UsageError(`--label: ${flags.label.length} characters; a label holds at most 128 (it names the moderator in moderator events)`);
    const problem = labelProblem(flags.label);
    if (problem !== undefined) throw new UsageError(`--label: ${shownText(flags.label)} ${problem}`);
    if ((Object.values(DEMO_KEY_LABELS) as string[]).includes(flags.label)) throw new UsageError(`--label: "${flags.label}" is reserved for the keys serve --demo makes and revokes`);
    if (flags.label.trim().startsWith(RULE_MODERATOR_PREFIX)) throw new UsageError(`--label: "${flags.label}" begins with "${RULE_MODERATOR_PREFIX}", which names moderation rules in moderator events`);
    const reach = flags.community.length === 0 ? undefined : communitiesProblem(flags.community);
    if (reach !== undefined) throw new UsageError(`--community: ${reach}`);
    await createKeyCommand(flags, scopes, flags.community.length === 0 ? undefined : flags.community);
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
async function createKeyCommand(flags: StoreFlags & { label: string }, scopes: readonly Scope[], communities: readonly string[] | undefined): Promise<void> {
  const { key, stored } = await withStore(flags, (store) => createKey(store, scopes, flags.label, communities === undefined ? {} : { communities }));
  process.stdout.write(`${key}\n`);
  const reach = stored.communities === undefined ? '' : ` in ${stored.communities.map((c) => JSON.stringify(c)).join(', ')} only`;
  process.stderr.write(`key ${stored.id} (${stored.scopes.join(', ')}${reach}) created; it is not shown again\n`);
}

async function listKeysCommand(flags: StoreFlags): Promise<void> {
  const list = await withStore(flags, (store) => store.listKeys());
  process.stdout.write(
    `${renderTable(
      [{ title: 'id' }, { title: 'scopes' }, { title: 'label' }, { title: 'communities' }, { title: 'created' }, { title: 'revoked' }],
      // A label made before labels were checked shows its refused characters escaped, never reordering the table.
      list.map((k) => [k.id, k.scopes.join(','), idCharacterProblem(k.label) === undefined ? k.label : shownText(k.label), k.communities === undefined ? 'every' : k.communities.map((c) => JSON.stringify(c)).join(' '), k.createdAt, k.revokedAt ?? '']),
    )}\n`,
  );
}

/** Revokes a key; false when there is no active key with that id. */
async function revokeKeyCommand(flags: StoreFlags, id: string): Promise<boolean> {
  return withStore(flags, (store) => store.revokeKey(id, new Date().toISOString()));
}
