/**
 * issue 17: a gateway's POST /v1/events refuses moderator events as `standing serve`'s does (an
 * ingest key cannot record a verdict, a note, a sanction, an appeal decision or a `moderator`);
 * a player's own appeal goes through. Real nats-server processes and the real PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterConfig, ingestKey, post, storedIds } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();

describe('issue 17: a gateway makes no moderator event', () => {
  it('refuses a verdict, a note, a sanction, an appeal decision and a moderator field posted with an ingest key (400 naming index and field), and takes an opened appeal', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls);
    const key = await ingestKey(db);
    const gateway = await cluster.gateway(config);
    await cluster.worker(config, 'w');
    const time = Date.parse('2026-11-01T10:00:00Z');
    const refused = [
      { id: 'v1', community: 'c0', time, type: 'verdict', on: 'player', player: 'ann', outcome: 'upheld', reason: 'seen it' },
      { id: 'n1', community: 'c0', time, type: 'note', player: 'ann', text: 'hi' },
      { id: 's1', community: 'c0', time, type: 'sanction', player: 'ann', action: 'ban', reason: 'cheating' },
      { id: 'a2', community: 'c0', time, type: 'appeal', player: 'ann', status: 'granted', appeal: 'a1', reason: 'ok' },
      { id: 'x1', community: 'c0', time, type: 'action', player: 'ann', delta: 1, moderator: 'me' },
    ];
    const answer = await post(gateway.url, key, refused);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('BATCH_REJECTED');
    expect((answer.body.problems as { index: number; field: string }[]).map((p) => [p.index, p.field])).toEqual([
      [0, 'type'],
      [1, 'type'],
      [2, 'type'],
      [3, 'status'],
      [4, 'moderator'],
    ]);
    const verdict = await post(gateway.url, key, [refused[0]]);
    expect(verdict.status).toBe(400);
    const appeal = await post(gateway.url, key, [{ id: 'a1', community: 'c0', time, type: 'appeal', player: 'ann', status: 'opened', text: 'I was lagging' }]);
    expect(appeal).toMatchObject({ status: 200, body: { accepted: 1 } });
  });

  it('issue 17, issue 25: a second open appeal of a player on one sanction is refused as standing serve refuses it (400, nothing stored); its retry counts as a duplicate, another player’s opening goes through', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 1 });
    const key = await ingestKey(db);
    const gateway = await cluster.gateway(config);
    await cluster.worker(config, 'w');
    const time = Date.parse('2026-11-01T10:00:00Z');
    const opening = (id: string, player: string) => ({ id, community: 'c0', time, type: 'appeal', player, status: 'opened', text: 'I was lagging' });
    expect(await post(gateway.url, key, [opening('a1', 'bob')])).toMatchObject({ status: 200, body: { accepted: 1, duplicates: 0 } });
    expect(await post(gateway.url, key, [opening('a1', 'bob')])).toMatchObject({ status: 200, body: { accepted: 0, duplicates: 1 } });
    const second = await post(gateway.url, key, [opening('a2', 'bob'), { id: 'x1', community: 'c0', time, type: 'action', player: 'bob', delta: 1 }]);
    expect(second).toMatchObject({ status: 400, body: { error: 'BATCH_REJECTED', problems: [{ index: 0, code: 'EVENT_CONFLICT', field: 'status' }] } });
    expect(await post(gateway.url, key, [opening('a3', 'cid')])).toMatchObject({ status: 200, body: { accepted: 1 } });
    expect(await post(gateway.url, key, [{ id: 'x2', community: 'c0', time, type: 'action', player: 'cid', delta: 1 }])).toMatchObject({ status: 200, body: { accepted: 1 } });
    // Answered once applied: the log holds what the answers said.
    expect((await storedIds(db, ['c0'])).get('c0')).toEqual(['a1', 'a3', 'x2']);
  });
});
