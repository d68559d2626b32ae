/**
 * The queue `standing simulate queue` measures (../simulations/queue/run.ts): a log goes through
 * a whole service in the process, as `standing serve` composes it: a live engine over an
 * in-memory SQLite store, the read side (ranking views, moderation book, alert monitor), and the
 * queue read from the same AttentionQueue the `GET /v1/queue` route reads.
 *
 * The configurations: the service's default scorers (cqr, reliability, chat, reports), its
 * default alert thresholds and queue weights, and trust seen by the community's observers (the
 * honest players most often rated up), since the generated community rates its players; each
 * scorer with its published method (`undefended`: every defence off) or with the defences its
 * module recommends (`recommended`: docs/abuse.md#the-settings-to-run). The generated logs are
 * dated in the past, so the clock-skew bound is lifted; the alert monitor checks once, after the
 * whole log is in. Nothing is written to disk; the store is closed before the answer returns.
 */
import pino from 'pino';
import type { StandingEvent } from '../events/types.js';
import { ServiceMetrics } from '../http/metrics.js';
import type { QueueEntry } from '../moderation/queue.js';
import { AttentionQueue } from '../service/attention.js';
import { DEFAULT_CONFIG, type ServiceConfig } from '../service/config.js';
import { LiveEngine } from '../service/live-engine.js';
import type { HonestCommunity } from '../simulations/attacks/community.js';
import { defenceSettings, isRecommended, PUBLISHED } from '../simulations/attacks/settings.js';
import { communityObservers } from '../simulations/attacks/trust-sybil-ring.js';
import type { Configuration, QueueReader } from '../simulations/queue/run.js';
import { openSqliteStore } from '../store/sqlite.js';
import { engineOptions } from './engine-options.js';
import { openReadSide } from './read-side.js';

/** Events per ingested batch (the service's default `maxBatchEvents`). */
const BATCH = DEFAULT_CONFIG.maxBatchEvents;

/** The scorer ids of the configurations, in the configuration's order. */
export const QUEUE_SCORERS: readonly string[] = [...DEFAULT_CONFIG.scorers.map((s) => s.scorer).filter((id) => id !== 'trust'), 'trust'];

/** The parameters of `scorer` under `configuration`: its published method, or its recommended defences (none listed: published). */
function paramsOf(scorer: string, configuration: Configuration): Readonly<Record<string, unknown>> {
  if (configuration === 'undefended') return PUBLISHED.params;
  return defenceSettings(scorer).find(isRecommended)?.params ?? PUBLISHED.params;
}

/** The service configuration `configuration` names, on `community`. */
export function queueConfig(configuration: Configuration, community: HonestCommunity): ServiceConfig {
  const observers = communityObservers(community);
  return {
    ...DEFAULT_CONFIG,
    maxClockSkewSeconds: null,
    // Each configuration names every scorer's parameters itself, over the published defaults.
    defences: 'published',
    scorers: QUEUE_SCORERS.map((scorer) => ({ scorer, params: { ...paramsOf(scorer, configuration), ...(scorer === 'trust' ? { observers } : {}) } })),
  };
}

/** The queue of `community` after `events`, under `config`, every row in rank order. */
export async function serviceQueue(config: ServiceConfig, events: readonly StandingEvent[], community: string): Promise<readonly QueueEntry[]> {
  const logger = pino({ level: 'silent' });
  const store = openSqliteStore(':memory:');
  try {
    const live = await LiveEngine.open(engineOptions(config, store, logger));
    for (let i = 0; i < events.length; i += BATCH) await live.ingest(events.slice(i, i + BATCH));
    const side = await openReadSide(config, store, live, new ServiceMetrics(), logger);
    try {
      await side.alerts.flush();
      return new AttentionQueue(live, side.views, side.alerts, store, config.queue, side.moderation).ranked(community);
    } finally {
      side.alerts.stop();
    }
  } finally {
    await store.close();
  }
}

/** The queue's players in rank order, as the service under `configuration` ranks them: what `simulate queue` measures. */
export const serviceQueueReader: QueueReader = async (configuration, community, events, name) =>
  (await serviceQueue(queueConfig(configuration, community), events, name)).map((entry) => entry.player);
