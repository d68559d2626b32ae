/**
 * `standing erase PLAYER` (issue 14, point 3): an operator erases a player from the service's
 * store with the service stopped, through the same LiveEngine.erase as DELETE /v1/players/:id.
 * Issue 24, point 4: erasing a player no stored event names is an error, not "0 events removed".
 * (Point 3, the erasure refusing the store of a running service, is in ./erase-held.test.ts.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, configuredInstances } from '../../src/service/config.js';
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
  });
});

describe('issue 24: standing erase of a player no stored event names is an error', () => {
  it('says so in one line, exits 1 and changes nothing, a second erasure of the same player included', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'standing-erase-')), 's.sqlite');
    const live = await LiveEngine.open({ store: openSqliteStore(db), instances: configuredInstances(DEFAULT_CONFIG), quality: QUALITY });
    await live.ingest([
      { type: 'action', time: 1, community: 'eu', player: 'ann', delta: 20 },
      { type: 'action', time: 2, community: 'eu', player: 'bob', delta: 12 },
    ]);
    await live.close();
    const stored = async () => {
      const store = openSqliteStore(db);
      try {
        return { events: await store.read('eu'), checkpoints: await store.loadCheckpoints('eu') };
      } finally {
        await store.close();
      }
    };
    const before = await stored();

    const unknown = await runCli(['erase', 'nobody', '--db', db]);
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'standing: player "nobody" is unknown: no stored event is by or about them; nothing was erased\n' });
    expect(await stored()).toEqual(before);

    expect((await runCli(['erase', 'ann', '--db', db])).code).toBe(0);
    const again = await runCli(['erase', 'ann', '--db', db]);
    expect(again).toEqual({ code: 1, stdout: '', stderr: 'standing: player "ann" is unknown: no stored event is by or about them; nothing was erased\n' });
  });
});
