/**
 * issue 25, point 7: `standing ingest` and `standing/client`'s `ingest()` read a gateway's answer
 * as they read serve's: one answer shape, `{accepted, duplicates, sequences}`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StandingClient } from '../../src/client/index.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { runCli } from '../support/cli.js';
import { clusterConfig, ingestKey, until } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();

describe('issue 25: one ingest answer through a gateway', () => {
  it('standing ingest prints the counts, and the client returns them, as against standing serve', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 2 });
    const key = await ingestKey(db);
    const gateway = await cluster.gateway(config);
    const worker = await cluster.worker(config, 'w');
    await until('the worker to hold both partitions', () => (worker.partitions().length === 2 ? true : undefined));
    const time = Date.parse('2026-11-01T00:00:00Z');
    const lines = Array.from({ length: 5 }, (_, i) => JSON.stringify({ id: `i${i}`, community: `c${i % 3}`, time: time + i, type: 'action', player: `p${i}`, delta: i }));
    const file = join(mkdtempSync(join(tmpdir(), 'standing-ingest-')), 'events.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);

    const first = await runCli(['ingest', file, '--url', gateway.url, '--key', key]);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/5 accepted, 0 duplicates/);
    const again = await runCli(['ingest', file, '--url', gateway.url, '--key', key]);
    expect(again.stdout).toMatch(/0 accepted, 5 duplicates/);

    const client = new StandingClient({ url: gateway.url, key });
    const outcome = await client.ingest([{ id: 'i9', community: 'c0', time, type: 'action', player: 'p9', delta: 1 }, JSON.parse(lines[0]!) as unknown]);
    expect(outcome).toEqual({ accepted: 1, duplicates: 1, sequences: { c0: 3 } });
  });
});
