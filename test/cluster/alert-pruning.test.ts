/**
 * issue 18: a cluster gateway prunes stored alerts as `standing serve` does: older than
 * `alerts.retentionDays`, each player's open alert kept whatever its age.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/service/config.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import type { NewAlert } from '../../src/store/types.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterConfig, until } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();

const alert = (player: string, kind: NewAlert['kind']): NewAlert => ({
  community: 'c0',
  scorer: 'cqr',
  player,
  threshold: 'low',
  kind,
  score: -60,
  sequence: 3,
  time: Date.parse('2026-01-01T00:00:00Z'),
});

describe('alert pruning in the cluster (issue 18)', () => {
  it('issue 18: a gateway deletes alerts past the retention, keeping the open one of each player', async () => {
    const db = await freshPostgresUrl();
    const store = await openPostgresStore(db);
    try {
      // ann: raised then cleared, both old (pruned); bob: raised long ago, still open (kept); cid: recent (kept).
      await store.appendAlerts([alert('ann', 'raised'), alert('ann', 'cleared'), alert('bob', 'raised')]);
      const client = new pg.Client({ connectionString: db });
      await client.connect();
      try {
        await client.query("UPDATE alerts SET created_at = now() - interval '40 days'");
      } finally {
        await client.end();
      }
      await store.appendAlerts([alert('cid', 'raised'), alert('cid', 'cleared')]);

      const base = clusterConfig(db, cluster.nats.urls);
      const config = resolveConfig([{ source: 'test', values: { ...base, alerts: { ...base.alerts, retentionDays: 30 } } }]);
      await cluster.gateway(config);
      const left = await until('the old alerts to be pruned', async () => {
        const alerts = (await store.readAlerts()).map((a) => [a.player, a.kind]);
        return alerts.length === 3 ? alerts : undefined;
      });
      expect(left).toEqual([
        ['bob', 'raised'],
        ['cid', 'raised'],
        ['cid', 'cleared'],
      ]);
    } finally {
      await store.close();
    }
  });
});
