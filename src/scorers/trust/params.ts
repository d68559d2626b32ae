/**
 * PlayerRating parameters (Kaiser & Feng; docs/spec.md §4). `decay` and `influence` are pluggable:
 * library users pass functions, the CLI names a preset.
 */
import { defineParams, readers, type FieldReader } from '../../params/define.js';

/** Weight of a rating by its remaining TTL: non-negative and non-decreasing. */
export type DecayFunction = (ttl: number, ttlMax: number) => number;
/** Weight of a rater by its reputation: non-negative and non-decreasing; 0 means no say. */
export type InfluenceFunction = (reputation: number) => number;

/** docs/spec.md default: Decay(TTL) = TTL / TTL_MAX. */
export const linearDecay: DecayFunction = (ttl, ttlMax) => ttl / ttlMax;
/** No ageing: every live rating counts fully. */
export const constantDecay: DecayFunction = () => 1;
/** docs/spec.md default: Influence(R) = R for R > 0, else 0. */
export const positiveInfluence: InfluenceFunction = (r) => (r > 0 ? r : 0);

export interface TrustParams {
  /** The observers S, pinned at reputation 1 (one player: a personal view). */
  readonly observers: readonly string[];
  /** T_expire in hours of event time: a TTL drops by one each period. */
  readonly expireHours: number;
  /** TTL_MAX: a rating lives TTL_MAX · T_expire after it is (re)set. */
  readonly ttlMax: number;
  /** Weight of a negative rating relative to a positive one (≥ 1; the paper's suggested hastening). */
  readonly negativeWeight: number;
  readonly maxIterations: number;
  /** Stop when the RMSD between iterations is below this. */
  readonly tolerance: number;
  readonly decay: DecayFunction;
  readonly influence: InfluenceFunction;
  /** 0: two threads on large graphs (see PARALLEL_MIN_EDGES); 1: one thread; 2: two threads. */
  readonly threads: number;
  /**
   * Trust-flow defence (./flow.ts, docs/trust.md#defences): a player whose trust flow from the
   * observers is below this share of the average has no positive reputation (it shows
   * min(R, 0)). 0: off (the paper).
   */
  readonly minFlow: number;
  /** The share of its trust flow a player passes on along its positive ratings, in (0, 1). */
  readonly flowDamping: number;
}

/** The defence settings docs/abuse.md recommends for a live community. */
export const RECOMMENDED_TRUST_DEFENCES = Object.freeze({ minFlow: 0.02, flowDamping: 0.3 });

const observersReader: FieldReader<readonly string[]> = (raw) => {
  if (Array.isArray(raw) && raw.every((id) => typeof id === 'string' && id.length > 0)) return Object.freeze([...raw] as string[]);
  if (typeof raw === 'string') return Object.freeze(raw.split(',').map((id) => id.trim()).filter((id) => id !== ''));
  return { invalid: 'must be player ids (an array, or a comma-separated string)' };
};

function functionReader<F>(presets: Readonly<Record<string, F>>): FieldReader<F> {
  return (raw) => {
    if (typeof raw === 'function') return raw as F;
    if (typeof raw === 'string' && Object.hasOwn(presets, raw)) return presets[raw]!;
    return { invalid: `must be a function or one of ${Object.keys(presets).join(', ')}` };
  };
}

export const trustParams = defineParams<TrustParams>(
  'trust',
  {
    observers: Object.freeze([]),
    expireHours: 1,
    ttlMax: 720,
    negativeWeight: 1,
    maxIterations: 100,
    tolerance: 1e-9,
    decay: linearDecay,
    influence: positiveInfluence,
    threads: 0,
    minFlow: 0,
    flowDamping: 0.5,
  },
  {
    observers: observersReader,
    expireHours: readers.positive(),
    ttlMax: readers.integer(1, false),
    negativeWeight: readers.number(1),
    maxIterations: readers.integer(1, false),
    tolerance: readers.number(0),
    decay: functionReader({ linear: linearDecay, constant: constantDecay }),
    influence: functionReader({ positive: positiveInfluence }),
    threads: readers.integer(0, false),
    minFlow: readers.number(0),
    flowDamping: readers.positive(),
  },
  (p) => (p.flowDamping >= 1 ? ['flowDamping', `must be in (0, 1), got ${p.flowDamping}`] : undefined),
);
