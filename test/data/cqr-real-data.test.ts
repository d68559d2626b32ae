/**
 * CQR over real public data (../shared/data, see each SOURCE.md): MovieLens ratings through the
 * `recommendation` domain and Coffee Stack Exchange posts through the `forum` domain. The checks
 * are ones we can defend whatever the data: Σ of every player's CQR_{∞,0,∞} equals the final
 * community quality (Δs telescope from Q = 0), every player is ranked, no score is NaN, the
 * result repeats exactly, and a planted troll ranks near the bottom.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILTIN_DOMAINS, cqr, Engine, instantiate, QualityStage, type CqrRow, type StandingEvent } from '../../src/index.js';
import { readData } from './support.js';

function rankAll(events: readonly StandingEvent[], params: Record<string, unknown>) {
  const quality = new QualityStage({ domains: BUILTIN_DOMAINS });
  const engine = new Engine([instantiate(cqr, params)], { quality });
  for (const event of events) engine.apply(event);
  return { rows: cqr.rank(engine.instances[0]!.state), quality };
}

const sum = (rows: readonly CqrRow[]) => rows.reduce((total, row) => total + row.score, 0);

describe('the Table 1 fixture', () => {
  it('is a faithful copy of ../shared/data/cqr-paper-table1/table1.csv', () => {
    expect(readFileSync(new URL('../fixtures/cqr-table1.csv', import.meta.url), 'utf8')).toBe(readData('cqr-paper-table1', 'table1.csv'));
  });
});

describe('MovieLens latest-small through the recommendation domain', () => {
  const lines = readData('movielens-latest-small', 'ratings.csv').trim().split('\n').slice(1);
  const ratings = lines
    .map((line, order) => {
      const [user, movie, stars, seconds] = line.split(',');
      return { user: user!, movie: movie!, stars: Number(stars), time: Number(seconds) * 1000, order };
    })
    .sort((a, b) => a.time - b.time || a.order - b.order);
  const events: StandingEvent[] = ratings.map((r) => ({
    type: 'action', time: r.time, community: 'movielens', player: `u${r.user}`, domain: 'recommendation', op: 'rate', item: `m${r.movie}`, stars: r.stars,
  }));

  it('ranks all 610 users; Σ CQR_{∞,0,∞} is the final quality; nothing is NaN; it repeats exactly', () => {
    expect(events).toHaveLength(100_836);
    const { rows, quality } = rankAll(events, { T: Infinity, x: 0, k: Infinity });
    expect(rows).toHaveLength(610);
    expect(rows.every((row) => Number.isFinite(row.score))).toBe(true);
    const q = quality.quality('movielens', 'recommendation');
    expect(q).toBeLessThan(0);
    expect(Math.abs(sum(rows) - q)).toBeLessThan(1e-9 * Math.max(1, Math.abs(q)) * 1e3);
    expect(rankAll(events, { T: Infinity, x: 0, k: Infinity }).rows).toEqual(rows);
  });

  // Eq. 10 averages variance over items, so one contrarian vote on a popular movie moves Q
  // little (a second rating of a sparse item moves it far more): a troll does not sink to the
  // very bottom. What must hold is the comparison with an honest twin on the same movies.
  it('scores a troll who rates popular movies against the consensus below an honest twin', () => {
    const byMovie = new Map<string, number[]>();
    for (const r of ratings) byMovie.set(r.movie, [...(byMovie.get(r.movie) ?? []), r.stars]);
    const popular = [...byMovie].sort((a, b) => b[1].length - a[1].length).slice(0, 40);
    const end = ratings.at(-1)!.time;
    const extra: StandingEvent[] = popular.flatMap(([movie, stars], i) => {
      const mean = stars.reduce((a, b) => a + b, 0) / stars.length;
      const rate = (player: string, value: number, time: number): StandingEvent =>
        ({ type: 'action', time, community: 'movielens', player, domain: 'recommendation', item: `m${movie}`, stars: value });
      return [rate('troll', mean >= 3 ? 0.5 : 5, end + 2 * i), rate('twin', Math.round(mean * 2) / 2, end + 2 * i + 1)];
    });
    const { rows } = rankAll([...events, ...extra], { T: 8, x: 0, k: 4 });
    const troll = rows.find((row) => row.player === 'troll')!;
    const twin = rows.find((row) => row.player === 'twin')!;
    expect(troll.score).toBeLessThan(0);
    expect(twin.score).toBeGreaterThan(0);
    expect(troll.rank).toBeGreaterThan(rows.length / 2);
    expect(twin.rank).toBeLessThan(troll.rank);
  });
});

describe('Coffee Stack Exchange posts through the forum domain', () => {
  const unescape = (text: string) =>
    text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#xA;/g, '\n').replace(/&#xD;/g, '\r').replace(/&amp;/g, '&');
  const attribute = (row: string, name: string) => row.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
  const posts = [...readData('stackexchange-coffee-2015', 'Posts.xml').matchAll(/<row [^>]*\/>/g)]
    .map(([row]) => ({
      id: attribute(row, 'Id')!,
      owner: attribute(row, 'OwnerUserId'),
      time: Date.parse(`${attribute(row, 'CreationDate')!}Z`),
      text: unescape(unescape(attribute(row, 'Body') ?? '')).replace(/<[^>]*>/g, ''),
    }))
    .filter((post) => post.owner !== undefined)
    .sort((a, b) => a.time - b.time);
  const events: StandingEvent[] = posts.map((post) => ({
    type: 'action', time: post.time, community: 'coffee', player: `user${post.owner}`, domain: 'forum', op: 'post', post: post.id, text: post.text,
  }));

  it('ranks every author; Σ CQR_{∞,0,∞} is the final quality; nothing is NaN; it repeats exactly', () => {
    expect(events.length).toBeGreaterThan(500);
    const authors = new Set(events.map((e) => (e as { player: string }).player));
    const { rows, quality } = rankAll(events, { T: Infinity, x: 0, k: Infinity });
    expect(rows).toHaveLength(authors.size);
    expect(rows.every((row) => Number.isFinite(row.score))).toBe(true);
    const q = quality.quality('coffee', 'forum');
    expect(q).toBeGreaterThan(0);
    expect(Math.abs(sum(rows) - q)).toBeLessThan(1e-6 * q);
    expect(rankAll(events, { T: Infinity, x: 0, k: Infinity }).rows).toEqual(rows);
  });

  // Any short post lowers eq. 9's mean, so shouting is compared with a twin who posts the
  // same words in ordinary case at the same moments.
  it('scores a shouting poster below a twin posting the same words quietly', () => {
    const end = posts.at(-1)!.time;
    const extra: StandingEvent[] = Array.from({ length: 5 }, (_, i) => i).flatMap((i) => [
      { type: 'action', time: end + 2 * i, community: 'coffee', player: 'shouter', domain: 'forum', op: 'post', post: `shout${i}`, text: 'BUY CHEAP BEANS NOW, BEST ROAST IN TOWN!!!' },
      { type: 'action', time: end + 2 * i + 1, community: 'coffee', player: 'twin', domain: 'forum', op: 'post', post: `quiet${i}`, text: 'Buy cheap beans now, best roast in town!!!' },
    ] as StandingEvent[]);
    const { rows } = rankAll([...events, ...extra], { T: 8, x: 0, k: 4 });
    const shouter = rows.find((row) => row.player === 'shouter')!;
    const twin = rows.find((row) => row.player === 'twin')!;
    expect(shouter.score).toBeLessThan(twin.score);
    expect(shouter.rank).toBeGreaterThan(rows.length / 2);
  });
});
