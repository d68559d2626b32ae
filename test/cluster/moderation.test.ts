/**
 * issue 17: a gateway's POST /v1/events refuses moderator events as `standing serve`'s does (an
 * ingest key cannot record a verdict, a note, a sanction, an appeal decision or a `moderator`);
 * a player's own appeal goes through, and only against a sanction of their own (issue 28). Real
 * nats-server processes and the real PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterConfig, ingestKey, keyWith, post, storedIds, until } from './support.js';
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

describe('issue 28: a gateway takes appeals only against a sanction of the same player', () => {
  it('refuses an appeal against a sanction the player does not have, or another player’s, as standing serve refuses it (400 EVENT_CONFLICT naming sanction, nothing stored); one against the player’s own goes through', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 1 });
    const key = await ingestKey(db);
    const moderator = await keyWith(db, ['moderate']);
    const gateway = await cluster.gateway(config);
    await cluster.worker(config, 'w');
    // Answered 503 (nothing recorded) until the worker serves the partition: sent again, with its id, until then.
    const sanction = await until('the worker to record the sanction', async () => {
      const response = await fetch(`${gateway.url}/v1/players/ann/sanctions?community=c0`, {
        method: 'POST',
        headers: { authorization: `Bearer ${moderator}`, 'content-type': 'application/json' },
        body: JSON.stringify({ community: 'c0', id: 's1', action: 'mute', reason: 'spam' }),
      });
      return response.status === 503 ? undefined : response;
    });
    expect(sanction.status, await sanction.clone().text()).toBe(201);
    const time = Date.parse('2026-11-01T10:00:00Z');
    const opening = (id: string, player: string, against: string) => ({ id, community: 'c0', time, type: 'appeal', player, status: 'opened', sanction: against, text: 'not me' });
    const reason = `names no sanction of player "bob" in community "c0": an appeal is against a sanction of the player who appeals (the sanction event's id), or names none`;
    for (const against of ['s1', 'no-such-sanction']) {
      const refused = await post(gateway.url, key, [{ id: 'x1', community: 'c0', time, type: 'action', player: 'bob', delta: 1 }, opening('a1', 'bob', against)]);
      expect(refused).toMatchObject({ status: 400, body: { error: 'BATCH_REJECTED', problems: [{ index: 1, code: 'EVENT_CONFLICT', field: 'sanction', reason: reason.replace('s1', against) }] } });
    }
    expect(await post(gateway.url, key, [opening('a2', 'ann', 's1')])).toMatchObject({ status: 200, body: { accepted: 1 } });
    expect((await storedIds(db, ['c0'])).get('c0')).toEqual(['s1', 'a2']);
  });
});
