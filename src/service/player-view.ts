/**
 * One player's own view (docs/moderation.md#the-player-view), for a studio's game to show them:
 * where they stand under each scorer instance in plain words (the scorers' own words for the
 * queue, and their band), their active sanctions with the reason and the end, what would improve
 * their standing, and their appeals and how to open one. It holds nothing of anyone else: no
 * other player's id (the words used name none: counts and places only; a scorer registered
 * beside the five built in gets a sentence made of its score and place alone), no moderator, no
 * note, no evidence. A sanction's reason and an appeal decision's reason are shown as the
 * moderator wrote them: they are written for the player.
 */
import type { ModerationBook } from '../moderation/book.js';
import { standingAt, tailOf } from '../moderation/percentiles.js';
import { adviceFor } from '../moderation/player-advice.js';
import { wordsOf } from '../scorers/index.js';
import { num, worstPlace } from '../util/words.js';
import type { LiveEngine } from './live-engine.js';
import type { RankingViews } from './views.js';

/** The scorers whose words for the queue name no other player. */
const OWN_WORDS: ReadonlySet<string> = new Set(['cqr', 'reliability', 'chat', 'reports', 'trust']);

export interface StandingLine {
  /** The scorer instance, by a name that holds no parameter (`publicName`). */
  readonly scorer: string;
  readonly direction: 'higher is better' | 'higher is worse';
  /** What a good and a bad score mean. */
  readonly good: string;
  readonly bad: string;
  readonly score: number;
  /** The scorer's band (reliability), when it has one. */
  readonly band?: string;
  /** Whether the player is among the worst `queue.tailShare` of the community under this scorer. */
  readonly concern: boolean;
  /** Where they stand, in words. */
  readonly text: string;
}

export interface ViewSanction {
  readonly id: string;
  readonly action: 'warn' | 'mute' | 'suspend' | 'ban';
  /** When it was imposed (event time, epoch ms). */
  readonly since: number;
  /** When it ends (epoch ms); absent: until lifted. */
  readonly until?: number;
  readonly reason: string;
  /** The player's open appeal against it, if any. */
  readonly appeal?: string;
}

export interface ViewAppeal {
  readonly id: string;
  readonly time: number;
  readonly sanction?: string;
  readonly status: 'open' | 'granted' | 'denied';
  readonly decided?: { readonly time: number; readonly reason?: string };
}

export interface PlayerView {
  readonly player: string;
  readonly community: string;
  readonly sequence: number;
  /** The community's clock: sanctions are active or ended as of this time. */
  readonly now: number;
  readonly standing: StandingLine[];
  readonly sanctions: ViewSanction[];
  readonly improve: string[];
  readonly appeals: ViewAppeal[];
  readonly howToAppeal: { readonly route: string; readonly sanctions: string[]; readonly text: string };
}

export interface PlayerViewSources {
  readonly live: Pick<LiveEngine, 'instances' | 'sequence' | 'lastTime'>;
  readonly views: Pick<RankingViews, 'ranking'>;
  readonly moderation: Pick<ModerationBook, 'record' | 'clock'>;
  /** The bad tail: the worst this share of a community (queue.tailShare). */
  readonly tailShare: number;
}

/**
 * What the view calls a scorer instance: its configured name, but for an instance named after
 * its parameters (`trust observers=F1,F2`: parameters may name players) the scorer's id, numbered
 * from the second instance of one scorer on (`cqr`, `cqr 2`).
 */
export function publicNames(instances: readonly { readonly name: string; readonly scorer: { readonly id: string } }[]): string[] {
  const seen = new Map<string, number>();
  return instances.map(({ name, scorer }) => {
    if (name !== scorer.id && !name.startsWith(`${scorer.id} `)) return name;
    const n = (seen.get(scorer.id) ?? 0) + 1;
    seen.set(scorer.id, n);
    return n === 1 ? scorer.id : `${scorer.id} ${n}`;
  });
}

/** The view of `player` in `community`; undefined when nothing is known of them there (no score, no sanction, no appeal). */
export async function playerView(sources: PlayerViewSources, community: string, player: string): Promise<PlayerView | undefined> {
  const { live, views, moderation } = sources;
  const now = Math.max(moderation.clock(community), live.lastTime(community));
  const standing: StandingLine[] = [];
  const improve: string[] = [];
  const names = publicNames(live.instances);
  for (const [i, instance] of live.instances.entries()) {
    const name = names[i]!;
    const view = views.ranking(instance, community);
    const row = view.rowOf(player);
    if (row === undefined) continue;
    const place = standingAt(view.rows, row.rank - 1, instance.scorer.rankOneIsWorst);
    const words = wordsOf(instance.scorer);
    const explanation = OWN_WORDS.has(instance.scorer.id) ? instance.scorer.explain(instance.state, community, player) : undefined;
    const text =
      explanation === undefined
        ? `${name} ${num(place.score)}, ${worstPlace(place.worstFirst, place.of)} (${words.direction})`
        : words.reason({ scorer: name, params: instance.params, standing: place, explanation, now });
    const concern = tailOf(place, sources.tailShare) > 0;
    const band = (row as unknown as { band?: unknown }).band;
    standing.push({ scorer: name, direction: words.direction, good: words.good, bad: words.bad, score: place.score, ...(typeof band === 'string' ? { band } : {}), concern, text });
    if (concern) improve.push(adviceFor(instance.scorer.id, instance.params as Record<string, unknown>, words.bad));
  }
  const record = await moderation.record(community, player, now);
  if (standing.length === 0 && record.sanctions.length === 0 && record.appeals.length === 0) return undefined;
  const openOn = new Map(record.appeals.filter((a) => a.status === 'open' && a.sanction !== undefined).map((a) => [a.sanction!, a.id]));
  const sanctions = record.sanctions
    .filter((s) => s.active)
    .map((s): ViewSanction => {
      const appeal = openOn.get(s.id);
      return { id: s.id, action: s.action, since: s.time, ...(s.until === undefined ? {} : { until: s.until }), reason: s.reason, ...(appeal === undefined ? {} : { appeal }) };
    });
  if (improve.length === 0 && standing.length > 0) {
    improve.push(`Nothing stands out: under every score you are outside the worst ${num(sources.tailShare * 100)}% of the community. Keep it so.`);
  }
  const appeals = record.appeals.map((a): ViewAppeal => {
    const decided = a.decided === undefined ? {} : { decided: { time: a.decided.time, ...(a.decided.reason === undefined ? {} : { reason: a.decided.reason }) } };
    return { id: a.id, time: a.time, ...(a.sanction === undefined ? {} : { sanction: a.sanction }), status: a.status, ...decided };
  });
  const appealable = sanctions.filter((s) => s.appeal === undefined).map((s) => s.id);
  return {
    player,
    community,
    sequence: live.sequence(community),
    now,
    standing,
    sanctions,
    improve,
    appeals,
    howToAppeal: {
      route: `POST /v1/players/${encodeURIComponent(player)}/standing/appeals`,
      sanctions: appealable,
      text:
        appealable.length === 0
          ? sanctions.length === 0
            ? 'You have no active sanction to appeal.'
            : 'Each of your active sanctions already has an open appeal: a moderator will decide it.'
          : 'Name the sanction you appeal and say why in your own words; a moderator reads it and grants or denies the appeal, and a granted appeal lifts the sanction.',
    },
  };
}
