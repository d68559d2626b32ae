/** Building an engine for a command and replaying its input file through it. */
import type { Place } from '../errors.js';
import { openEventSource } from '../events/ndjson.js';
import { parseTime } from '../events/time.js';
import type { StandingEvent } from '../events/types.js';
import { Engine, instantiate, type ScorerInstance } from '../engine/engine.js';
import { replay } from '../engine/replay.js';
import { BUILTIN_DOMAINS } from '../quality/index.js';
import { QualityStage } from '../quality/stage.js';
import { withDefences, type Defences } from '../scorers/defences.js';
import type { AnyScorer } from '../scorers/scorer.js';
import { integer, parseAssignments, parseParameterization, qualityOptions } from './options.js';
import { UsageError } from './errors.js';

export interface LoadRequest {
  readonly scorer: AnyScorer;
  /** `--set` pairs: the first parameterization. */
  readonly set: readonly string[];
  /** `--compare` specs: more parameterizations run on the same pass. */
  readonly compare?: readonly string[];
  /** What each parameterization is over: the recommended defences, or the published method. */
  readonly defences: Defences;
  readonly file: string;
  readonly qualityFile?: string | undefined;
  readonly observe?: (event: StandingEvent, place: Place | undefined) => void;
  /** Whether `observe` needs each event's place (default true). */
  readonly observePlaces?: boolean;
  /** `--now`: evaluate as of this moment (events dated after it left out, expiry evaluated then). */
  readonly now?: number | undefined;
}

export interface Loaded {
  readonly instances: readonly ScorerInstance[];
  /** Events applied. */
  readonly events: number;
}

export async function load(request: LoadRequest): Promise<Loaded> {
  const inputs = [
    parseAssignments(request.set, '--set'),
    ...(request.compare ?? []).map((spec) => parseParameterization(spec, '--compare')),
  ];
  const instances = inputs.map((input) => ({ ...instantiate(request.scorer, withDefences(request.scorer.id, request.defences, input)), defences: request.defences }));
  const unique = [...new Map(instances.map((instance) => [instance.name, instance])).values()];
  const quality = new QualityStage({ domains: BUILTIN_DOMAINS, options: await qualityOptions(request.qualityFile) });
  const engine = new Engine(unique, { quality, observe: request.observe, observePlaces: request.observePlaces });
  const now = request.now;
  const { events, later, repeated } = await replay(engine, openEventSource(request.file), { ...parseThreadsSetting(), ...(now === undefined ? {} : { until: now }) });
  if (repeated > 0) process.stderr.write(`standing: ${repeated} event${repeated === 1 ? '' : 's'} left out: ${repeated === 1 ? 'its id was' : 'their ids were'} already taken by an earlier event of the community\n`);
  if (now !== undefined) {
    engine.advance(now);
    if (later > 0) process.stderr.write(`standing: --now ${new Date(now).toISOString()}: ${later} event${later === 1 ? '' : 's'} dated after it left out\n`);
  }
  return { instances: unique, events };
}

/** `--now TIME`: epoch ms of an ISO-8601 time with a zone, or of epoch milliseconds. */
export function nowOption(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const time = parseTime(/^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw);
  if (typeof time === 'string') throw new UsageError(`--now ${time}`);
  return time;
}

/**
 * `STANDING_PARSE_THREADS`: worker threads that parse a log besides the main thread (0: the
 * main thread alone); unset, the default of ReadOptions (defaultParseThreads in ../events/ndjson.ts).
 */
function parseThreadsSetting(): { parseThreads?: number } {
  const raw = process.env.STANDING_PARSE_THREADS;
  if (raw === undefined || raw === '') return {};
  const threads = integer(raw, 'STANDING_PARSE_THREADS');
  if (threads < 0 || threads > 16) throw new UsageError(`STANDING_PARSE_THREADS expects 0 to 16, got "${raw}"`);
  return { parseThreads: threads };
}
