/**
 * `chat` over real data (../shared/data): SNAP CollegeMsg and CONDA Dota 2 chat, imported by
 * the real CLI. Defensible checks: every event is imported, every score is a number within
 * [repMin, repMax], the players who hear from the most different people rank near the top
 * (concepts I and III of the paper), and the ranking repeats exactly.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chat, validateEvent, type ChatEvent } from '../../src/index.js';
import { ROOT } from '../support/cli.js';
import { dataFile } from './support.js';

function importWithCli(format: string, file: string): string {
  return execFileSync(process.execPath, ['dist/cli/main.js', 'import', format, file], { cwd: ROOT, maxBuffer: 1 << 28 }).toString();
}

function rankCli(ndjson: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'standing-data-')), 'chat.ndjson');
  writeFileSync(path, ndjson);
  return execFileSync(process.execPath, ['dist/cli/main.js', 'rank', 'chat', path, '--defences', 'published', '--format', 'json'], { cwd: ROOT, maxBuffer: 1 << 28 }).toString();
}

function check(ndjson: string, expectedEvents: number) {
  const events = ndjson.trim().split('\n').map((line) => validateEvent(JSON.parse(line)) as ChatEvent);
  expect(events).toHaveLength(expectedEvents);
  const state = chat.initialState(chat.params.resolve({}));
  const senders = new Map<string, Set<string>>();
  for (const event of events) {
    chat.evolve(state, event);
    for (const r of event.to) (senders.get(r) ?? senders.set(r, new Set()).get(r)!).add(event.from);
  }
  const rows = chat.rank(state);
  for (const row of rows) {
    expect(Number.isFinite(row.score)).toBe(true);
    expect(row.score).toBeGreaterThanOrEqual(0.1);
    expect(row.score).toBeLessThanOrEqual(1);
  }
  const rankOf = new Map(rows.map((r) => [r.player, r.rank]));
  const mostHeard = [...senders].sort((a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1)).slice(0, 20);
  for (const [player] of mostHeard) expect(rankOf.get(player)!).toBeLessThanOrEqual(rows.length * 0.1);
  const cli = rankCli(ndjson);
  expect(rankCli(ndjson)).toBe(cli);
  expect((JSON.parse(cli) as { player: string; score: number }[]).map((r) => [r.player, r.score])).toEqual(rows.map((r) => [r.player, r.score]));
  return rows;
}

describe('SNAP CollegeMsg', () => {
  it('imports 59,835 messages among 1,899 users and ranks them sensibly', () => {
    const rows = check(importWithCli('college-msg', dataFile('college-msg', 'CollegeMsg.txt')), 59_835);
    expect(rows).toHaveLength(1_899);
  });
});

describe('CONDA Dota 2 chat', () => {
  it('imports every utterance that has someone else in its match to hear it, and ranks sensibly', () => {
    // 26,921 utterances; 87 are in matches where only their sender chatted, so they have no receiver
    check(importWithCli('conda', dataFile('conda-dota2-chat', 'CONDA_train.csv')), 26_834);
  });
});
