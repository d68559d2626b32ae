/**
 * Issue 28, point 9 on the cluster: gateways and workers run the recommended defences by default,
 * as `standing serve` does over the same log; GET /v1/scorers through a gateway is serve's, and
 * with `community` the owning worker says whether the match defences are engaged there.
 */
import { describe, expect, it } from 'vitest';
import { startService } from '../../src/app/serve.js';
import type { StandingEvent } from '../../src/events/types.js';
import { reportBrigadeLog } from '../../src/simulations/report-brigade.js';
import { seededRng } from '../../src/util/random.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterConfig, keyWith, post, quiet, until } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();

const brigade = reportBrigadeLog({ players: 200, bad: 10, reportsPerBad: 8, noise: 40, rng: seededRng(3), matches: true });
const log = (community: string, keep: (e: StandingEvent) => boolean) => [...brigade.base, ...brigade.brigade(10)].filter(keep).map((e, i) => ({ ...e, community, id: `${community}-${i}` }));
/** Reports after shared matches, and a brigade that shared none with its target. */
const MATCHES = log('matches', () => true);
/** The same without match.start: the match defences stay off there. */
const PLAIN = log('plain', (e) => e.type !== 'match.start');

async function get(url: string, key: string, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('issue 28: the cluster is safe by default', () => {
  it('ranks and describes its defences through a gateway as standing serve does over the same log', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 2 });
    expect(config.defences).toBe('recommended');
    const key = await keyWith(db, ['read', 'ingest']);
    const gateway = await cluster.gateway(config);
    const worker = await cluster.worker(config, 'w');
    await until('the worker to hold both partitions', () => (worker.partitions().length === 2 ? true : undefined));
    for (const events of [MATCHES, PLAIN]) expect((await post(gateway.url, key, events)).status).toBe(200);

    const single = cluster.closeAfter(await startService({ ...config, port: 0, checkpointSeconds: 0, checkpointEvery: 1_000_000 }, quiet));
    const paths = ['/v1/scorers', '/v1/scorers?community=matches', '/v1/scorers?community=plain', '/v1/scorers?community=none'];
    for (const community of ['matches', 'plain']) paths.push(`/v1/rankings/reports?community=${community}&limit=1000`, `/v1/rankings/reliability?community=${community}&limit=1000`);
    for (const path of paths) {
      const expected = await get(single.url, key, path);
      expect(expected.status).toBe(200);
      expect({ path, ...(await get(gateway.url, key, path)) }).toEqual({ path, ...expected });
    }

    const engaged = async (community: string) => {
      const { body } = await get(gateway.url, key, `/v1/scorers?community=${community}`);
      const reports = (body.scorers as { name: string; defences: { on: { param: string; engaged: boolean }[] } }[]).find((s) => s.name === 'reports')!;
      return Object.fromEntries(reports.defences.on.map((d) => [d.param, d.engaged]));
    };
    expect(await engaged('matches')).toMatchObject({ sharedMatchDays: true, oneVoicePerMatch: true, judgmentSplit: true });
    expect(await engaged('plain')).toMatchObject({ sharedMatchDays: false, oneVoicePerMatch: false, judgmentSplit: true });

    // The brigade shared no match with its target: its reports count nothing where matches arrive.
    const rows = (await get(gateway.url, key, '/v1/rankings/reports?community=matches&limit=1000')).body.rows as { player: string; score: number; rank: number }[];
    expect(rows.find((r) => r.player === brigade.innocent)).toMatchObject({ score: 0 });
    expect(new Set(rows.slice(0, brigade.bad.length).map((r) => r.player))).toEqual(new Set(brigade.bad));
  });
});
