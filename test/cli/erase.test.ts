/**
 * `standing erase PLAYER` (issue 14, point 3): an operator erases a player from the service's
 * store with the service stopped, through the same LiveEngine.erase as DELETE /v1/players/:id.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/service/config.js';
import { configuredInstances } from '../../src/service/service.js';
import { LiveEngine } from '../../src/service/live-engine.js';
import { BUILTIN_DOMAINS } from '../../src/quality/index.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import { runCli } from '../support/cli.js';

const QUALITY = { domains: BUILTIN_DOMAINS, options: {} };
const LONG_ID = `p/${'é'.repeat(60)}?#%`;

describe('standing erase', () => {
  it('erases every event naming the player, recomputes the communities, and leaves others whole', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'standing-erase-')), 's.sqlite');
    const live = await LiveEngine.open({ store: openSqliteStore(db), instances: configuredInstances(DEFAULT_CONFIG), quality: QUALITY });
    await live.ingest([
      { type: 'action', time: 1, community: 'eu', player: LONG_ID, delta: 20 },
      { type: 'action', time: 2, community: 'eu', player: 'bob', delta: 12 },
      { type: 'chat', time: 3, community: 'us', from: 'bob', to: [LONG_ID, 'cat'] },
    ]);
    await live.close();

    const result = await runCli(['erase', LONG_ID, '--db', db]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`player "${LONG_ID}" erased: 1 events removed, 1 rewritten (communities eu, us recomputed)\n`);

    const store = openSqliteStore(db);
    try {
      const events = [...(await store.read('eu')), ...(await store.read('us'))].map((s) => s.event);
      expect(JSON.stringify(events)).not.toContain(LONG_ID);
      expect(events).toEqual([expect.objectContaining({ player: 'bob', delta: 12 }), expect.objectContaining({ from: 'bob', to: ['cat'] })]);
    } finally {
      await store.close();
    }
    const again = await runCli(['erase', LONG_ID, '--db', db]);
    expect(again.stdout).toBe(`player "${LONG_ID}" erased: 0 events removed, 0 rewritten (no community recomputed)\n`);
  });
});
