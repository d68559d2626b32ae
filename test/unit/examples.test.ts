/**
 * The bundled example log and labels are the paper's Table 1, exactly. Issue 24, point 5: the
 * example logs of chat, trust and reports rank the labelled classes as examples/README.md says,
 * with the scorers' default parameters, and all the examples lie in one span in which nothing
 * has expired at their newest event.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_DOMAINS, Engine, instantiate, openEventSource, parseLabels, QualityStage, replay, rocAuc, SCORERS, validateEvent, type ActionEvent, type AnyScorer, type RankRow } from '../../src/index.js';
import { TABLE1 } from '../support/table1.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const LABELS = parseLabels(readFileSync(`${EXAMPLES}cqr-table1.labels.csv`, 'utf8'), 'labels');

/** An engine with one instance of `scorer`, after replaying `file` of examples/. */
async function replayed(scorer: AnyScorer, params: Record<string, unknown>, file: string): Promise<Engine> {
  const engine = new Engine([instantiate(scorer, params)], { quality: new QualityStage({ domains: BUILTIN_DOMAINS }) });
  await replay(engine, openEventSource(`${EXAMPLES}${file}`));
  return engine;
}

const ranking = (engine: Engine): RankRow[] => engine.instances[0]!.scorer.rank(engine.instances[0]!.state);

describe('examples/cqr-table1.*', () => {
  it('the log holds every delta of Table 1, each player’s in order', () => {
    const events = readFileSync(new URL('../../examples/cqr-table1.ndjson', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .map((line) => validateEvent(JSON.parse(line)) as ActionEvent);
    const byPlayer = new Map<string, number[]>();
    for (const e of events) byPlayer.set(e.player, [...(byPlayer.get(e.player) ?? []), e.delta!]);
    expect(Object.fromEntries(byPlayer)).toEqual(Object.fromEntries(TABLE1.map((p) => [p.player, p.deltas])));
    expect(new Set(events.map((e) => e.id)).size).toBe(400);
  });

  it('the labels are the table’s classes', () => {
    const labels = parseLabels(readFileSync(new URL('../../examples/cqr-table1.labels.csv', import.meta.url), 'utf8'), 'labels');
    expect(Object.fromEntries(labels)).toEqual(Object.fromEntries(TABLE1.map((p) => [p.player, p.class])));
  });
});

describe('issue 24: an example log for every scorer', () => {
  it('chat, trust and reports tell the labelled classes apart with their default parameters, as examples/README.md says', async () => {
    // ROC AUC: the chance that a fair player (F, f) scores above a disruptive one (d, D).
    const chat = ranking(await replayed(SCORERS.chat, {}, 'chat.ndjson'));
    expect(rocAuc(chat, LABELS)).toBe(0.97);
    const players = (rows: readonly RankRow[]) => rows.map((row) => row.player);
    const sorted = (ids: readonly string[]) => [...ids].sort();
    // The five F players among the top six, the five D players among the bottom seven.
    expect(players(chat.slice(0, 6)).filter((p) => /^F/.test(p))).toHaveLength(5);
    expect(players(chat.slice(-7)).filter((p) => /^D/.test(p))).toHaveLength(5);
    const trust = ranking(await replayed(SCORERS.trust, { observers: 'F1,F2' }, 'trust.ndjson'));
    expect(trust.map((row) => row.player)).toHaveLength(18);
    expect(rocAuc(trust, LABELS)).toBe(0.9375);
    // Negative: every D player, d1, d2, d3, and f5 just below 0.
    expect(sorted(players(trust.filter((row) => row.score < 0)))).toEqual(sorted(['D1', 'D2', 'D3', 'D4', 'D5', 'd1', 'd2', 'd3', 'f5']));
    expect(trust.find((row) => row.player === 'f5')!.score).toBeGreaterThan(-0.1);
    // reports ranks badness: rank 1 is the worst player.
    const reports = ranking(await replayed(SCORERS.reports, {}, 'reports.ndjson'));
    expect(rocAuc(reports, LABELS)).toBe(0.11);
    expect(reports.slice(0, 7).every((row) => /^[dD]/.test(row.player))).toBe(true);
    // Never reported, so no bad-player points.
    for (const p of ['F2', 'F4', 'F5']) expect(reports.find((row) => row.player === p)!.score).toBe(0);
  });

  it('the examples lie in one span: at the newest event of them all, no rating of trust.ndjson has expired', async () => {
    const times = readdirSync(EXAMPLES)
      .filter((name) => name.endsWith('.ndjson'))
      .flatMap((name) => readFileSync(`${EXAMPLES}${name}`, 'utf8').trim().split('\n'))
      .map((line) => Date.parse((JSON.parse(line) as { time: string }).time));
    const newest = Math.max(...times);
    expect(new Date(newest).toISOString()).toBe('2024-06-03T13:00:00.000Z');
    expect(newest - Math.min(...times)).toBeLessThan(35 * 86_400_000);
    const engine = await replayed(SCORERS.trust, { observers: 'F1,F2' }, 'trust.ndjson');
    // Each player's ratings in force, by player (the order may change as the ratings decay).
    const live = (rows: RankRow[]) => Object.fromEntries(rows.map((row) => [row.player, (row as RankRow & { ratings: number }).ratings]));
    const before = live(ranking(engine));
    engine.advance(newest);
    const after = ranking(engine);
    expect(live(after)).toEqual(before);
    expect(after.filter((row) => row.score < 0).length).toBeGreaterThan(5);
  });
});
