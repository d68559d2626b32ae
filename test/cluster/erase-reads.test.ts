/**
 * Reads through a gateway while a player is erased: the partition's owner applies the erase
 * command between two messages and goes on answering reads, before the erasure or after it,
 * never "no worker serves the partition".
 */
import { describe, expect, it } from 'vitest';
import { partitionOf } from '../../src/store/partitions.js';
import { createKey } from '../../src/service/keys.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterConfig, liveRankings, post } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();

describe('issue 25: reads of a partition go on answering through an erasure', () => {
  it('answers 200 right after DELETE /v1/players/:id answers, the player gone from the read', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 2 });
    const store = await openPostgresStore(db);
    const [ingest, admin, read] = [(await createKey(store, ['ingest'])).key, (await createKey(store, ['admin'])).key, (await createKey(store, ['read'])).key];
    await store.close();
    const g = await cluster.gateway(config);
    const w = await cluster.worker(config, 'w-erase-reads');
    const time = Date.parse('2026-11-01T00:00:00Z');
    const events = Array.from({ length: 20 }, (_, i) => ({ id: `r${i}`, community: 'c0', time: time + i, type: 'action', player: i % 2 === 0 ? 'gone' : 'kept', delta: 5 }));
    expect((await post(g.url, ingest, events)).status).toBe(200);
    await liveRankings([w], partitionOf('c0', 2), 'c0', events.length);
    const get = async (path: string) => {
      const response = await fetch(`${g.url}${path}`, { headers: { authorization: `Bearer ${read}` } });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect((await get('/v1/players/gone?community=c0')).status).toBe(200);

    const erased = await fetch(`${g.url}/v1/players/gone`, { method: 'DELETE', headers: { authorization: `Bearer ${admin}` } });
    expect(await erased.json()).toEqual({ player: 'gone', communities: ['c0'], removed: 10, rewritten: 0 });
    // At once, and for a while after: the partition answers, and shows the erasure.
    for (let i = 0; i < 20; i++) {
      const ranking = await get('/v1/rankings/cqr?community=c0');
      expect(ranking.status, JSON.stringify(ranking.body)).toBe(200);
      expect(JSON.stringify(ranking.body)).not.toContain('"gone"');
      expect(JSON.stringify(ranking.body)).toContain('"kept"');
      const player = await get('/v1/players/gone?community=c0');
      expect(player.status, JSON.stringify(player.body)).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
