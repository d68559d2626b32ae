/** The service on PostgreSQL: the same API over `--db postgres://…`, restarting with the same scores. */
import { afterAll, describe, expect, it } from 'vitest';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../support/postgres.js';
import { json, startTestService } from './support.js';

afterAll(dropPostgresSchemas);

describe.skipIf(!postgresAvailable)('service on PostgreSQL', () => {
  it('ingests atomically, serves rankings and alerts, and restarts with the same state', async () => {
    const db = await freshPostgresUrl();
    const config = { db, checkpointEvery: 5, alerts: { thresholds: [{ name: 'low', scorer: 'cqr', below: -50 }], webhooks: [], retentionDays: 0, intervalMs: 0, webhookRetryMs: 10 } };
    const first = await startTestService(config);
    const events = Array.from({ length: 12 }, (_, i) => ({ type: 'action', time: 1_000 + i, id: `e${i}`, player: `p${i % 3}`, delta: i % 3 === 2 ? -40 : 15 }));
    const ok = await first.call('/v1/events', { ...json(events), key: first.keys.ingest });
    expect(await ok.json()).toEqual({ accepted: 12, duplicates: 0, sequences: { default: 12 } });
    const refused = await first.call('/v1/events', { ...json([events[0], { type: 'action', time: 1, player: 'x' }]), key: first.keys.ingest });
    expect(refused.status).toBe(400);
    expect(await (await first.call('/v1/events', { ...json(events.slice(0, 3)), key: first.keys.ingest })).json()).toMatchObject({ accepted: 0, duplicates: 3 });
    await first.service.alerts.flush();
    const ranking = await (await first.call('/v1/rankings/cqr', { key: first.keys.read })).json();
    expect(ranking).toMatchObject({ total: 3, rows: [{ player: 'p0', score: 60 }, { player: 'p1', score: 60 }, { player: 'p2', score: -160 }] });
    const alerts = await (await first.call('/v1/alerts', { key: first.keys.read })).json();
    expect(alerts).toMatchObject({ alerts: [{ player: 'p2', kind: 'raised' }] });
    await first.close();

    const second = await startTestService(config, first.keys);
    try {
      expect(second.service.store.kind).toBe('postgres');
      expect(await (await second.call('/v1/rankings/cqr', { key: second.keys.read })).json()).toEqual(ranking);
      expect(await (await second.call('/v1/alerts', { key: second.keys.read })).json()).toEqual(alerts);
    } finally {
      await second.close();
    }
  });
});
