/**
 * A scorer of one's own plugged into the registry (docs/architecture.md#adding-a-scorer): the
 * small `reported` scorer of test/support/reported-scorer.mjs, loaded through STANDING_SCORERS,
 * runs through the command line (rank, explain), the service (rankings, GET /v1/scorers, a
 * history thread) and the attention queue and case, with its own words, like the five built in.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEventLine } from '../../src/index.js';
import { runCli } from '../support/cli.js';
import { startServe, type ServeProcess } from '../support/serve-process.js';

const PLUGIN = { STANDING_SCORERS: './test/support/reported-scorer.mjs' };
const LOG = 'examples/reports.ndjson';

/** Reports received per player in the log, counted by hand: the ranking `reported` must give. */
function expectedRows(): { rank: number; player: string; score: number; community: string }[] {
  const counts = new Map<string, number>();
  for (const line of readFileSync(LOG, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const event = JSON.parse(line) as { type: string; to?: string };
    if (event.type === 'report') counts.set(event.to!, (counts.get(event.to!) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([player, score], i) => ({ rank: i + 1, player, score, community: 'default' }));
}

describe('issue 26: a sixth scorer through the command line', () => {
  it('ranks and explains by its id once STANDING_SCORERS names it, and is unknown without it', async () => {
    const rows = expectedRows();
    expect(rows.length).toBeGreaterThan(2);
    const rank = await runCli(['rank', 'reported', LOG, '--format', 'json'], undefined, PLUGIN);
    expect(rank.stderr).toBe('');
    expect(JSON.parse(rank.stdout)).toEqual(rows);

    const top = rows[0]!;
    const explain = await runCli(['explain', 'reported', LOG, '--player', top.player], undefined, PLUGIN);
    expect(explain.stdout).toBe(`reported  player ${top.player}  community default\n${top.score} reports received\n`);
    const unknown = await runCli(['explain', 'reported', LOG, '--player', 'nobody'], undefined, PLUGIN);
    expect(unknown.stderr).toContain(`player "nobody" has no reports in community "default" of ${LOG}`);

    const without = await runCli(['rank', 'reported', LOG]);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('unknown scorer "reported"');
  });

  it('names a module that cannot be loaded, or that exports no scorer module, and exits 1', async () => {
    const missing = await runCli(['rank', 'cqr', LOG], undefined, { STANDING_SCORERS: './test/support/no-such-scorer.mjs' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('STANDING_SCORERS: cannot load ./test/support/no-such-scorer.mjs');
    const dir = mkdtempSync(join(tmpdir(), 'standing-sixth-'));
    writeFileSync(join(dir, 'empty.mjs'), 'export const nothing = 1;\n');
    const empty = await runCli(['rank', 'cqr', LOG], undefined, { STANDING_SCORERS: join(dir, 'empty.mjs') });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain(`STANDING_SCORERS: ${join(dir, 'empty.mjs')} exports no scorerModule`);
  });
});

describe('issue 26: a sixth scorer keeps the checkpoint properties', () => {
  it('restores exactly from its snapshots at any cut, as the service restarts from them', async () => {
    // Plain JavaScript over the built package, as the command line loads it.
    const { scorerModule } = await import('../support/reported-scorer.mjs');
    const { restoresExactly, snapshotsRoundTrip } = (await import('../../dist/testing/index.js')) as typeof import('../../src/testing/index.js');
    const events = readFileSync(LOG, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l, i) => parseEventLine(l, LOG, i + 1));
    expect(snapshotsRoundTrip(scorerModule.scorer, {}, events)).toBe(true);
    for (const at of [0, 1, Math.floor(events.length / 2), events.length]) expect(restoresExactly(scorerModule.scorer, {}, events, at), `cut at ${at}`).toBe(true);
  });
});

describe('issue 26: a sixth scorer through the service and the queue', () => {
  let serve: ServeProcess;
  let moderate: string;
  const get = async (path: string) => {
    const response = await fetch(`${serve.url}${path}`, { headers: { authorization: `Bearer ${moderate}` } });
    expect(response.status, path).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'standing-sixth-'));
    const db = join(dir, 's.sqlite');
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ maxClockSkewSeconds: null, scorers: [{ scorer: 'reported' }, { scorer: 'reports' }] }));
    const created = await runCli(['keys', 'create', '--scope', 'ingest,moderate', '--db', db]);
    expect(created.code).toBe(0);
    moderate = created.stdout.trim();
    serve = await startServe(db, { args: ['--config', config], env: PLUGIN });
    const body = readFileSync(LOG, 'utf8');
    const ingest = await fetch(`${serve.url}/v1/events`, { method: 'POST', headers: { authorization: `Bearer ${moderate}`, 'content-type': 'application/x-ndjson' }, body });
    expect(ingest.status).toBe(200);
  });

  afterAll(async () => {
    await serve?.stop();
  });

  it('serves its ranking, the ranking the command line gives, and its meaning', async () => {
    const ranking = await get('/v1/rankings/reported?community=default&limit=100');
    expect(ranking.rows).toEqual(expectedRows());
    const { scorers } = (await get('/v1/scorers')) as { scorers: { name: string; direction: string; good: string; bad: string; bar: unknown; rankOneIsWorst: boolean }[] };
    expect(scorers.find((s) => s.name === 'reported')).toMatchObject({ rankOneIsWorst: true, direction: 'higher is worse', good: '0: nobody reported them', bad: 'high: reported often', bar: { kind: 'harm' } });
  });

  it('puts the most reported player in the queue with its words, and in the case', async () => {
    const top = expectedRows()[0]!;
    const queue = (await get('/v1/queue?community=default&limit=50')) as { rows: { player: string; reasons: string[] }[] };
    const row = queue.rows.find((r) => r.player === top.player);
    expect(row?.reasons).toContain(`reported ${top.score} times (reported)`);
    const kase = (await get(`/v1/players/${encodeURIComponent(top.player)}/case?community=default`)) as { scores: { scorer: string; summary: string; good: string }[] };
    expect(kase.scores.find((s) => s.scorer === 'reported')).toMatchObject({ good: '0: nobody reported them', summary: expect.stringMatching(new RegExp(`^Reported ${top.score} times, rank 1 of \\d+\\.$`)) });
  });

  it('replays its history on a history thread', async () => {
    const top = expectedRows()[0]!;
    const history = (await get(`/v1/players/${encodeURIComponent(top.player)}/history?scorer=reported&community=default`)) as { points: { score: number }[] };
    expect(history.points.at(-1)?.score).toBe(top.score);
  });
});
