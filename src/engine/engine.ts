/**
 * The engine runs several scorer instances (several scorers, or several parameterizations of
 * one) over one pass of an event stream. Every event goes through the quality stage first
 * (domain actions get their delta), then to each instance's `evolve`. The CLI, the service and
 * the simulations all feed events through here.
 */
import { locate, ParameterError, type Place } from '../errors.js';
import type { StandingEvent } from '../events/types.js';
import { formatParams } from '../params/format.js';
import { QualityStage } from '../quality/stage.js';
import type { Defences } from '../scorers/defences.js';
import type { AnyScorer } from '../scorers/scorer.js';

export interface ScorerInstance<S extends AnyScorer = AnyScorer> {
  /** A label for output, unique in the engine (for example `cqr T=8,x=10,k=4`). */
  readonly name: string;
  readonly scorer: S;
  readonly params: Readonly<Record<string, unknown>>;
  readonly state: ReturnType<S['initialState']>;
  /**
   * The defence setting its parameters were made under (../scorers/defences.ts), by whoever ran a
   * configuration: its name and a request's `params` are read against that setting's defaults.
   * Absent: the scorer's defaults, its published method.
   */
  readonly defences?: Defences;
}

/** What follows the scorers (the moderation rules): told of every event they applied, in order. */
export interface EngineStage {
  applied(event: StandingEvent): void;
}

export interface EngineOptions {
  readonly quality: QualityStage;
  /** Called with each event as the scorers see it (a domain action with its delta). */
  readonly observe?: (event: StandingEvent, place: Place | undefined) => void;
  /** Whether `observe` needs each event's place (default true); false spares a replay building one per event. */
  readonly observePlaces?: boolean;
  /** Told of each event once the scorers applied it (../moderation/rules/stage.ts). */
  readonly stage?: EngineStage;
}

export class Engine {
  readonly instances: readonly ScorerInstance[];
  /** The quality stage in front of the scorers (each community's domain states). */
  readonly quality: QualityStage;
  private readonly observe: EngineOptions['observe'];
  private readonly observePlaces: boolean;
  /** What follows the scorers, if anything. */
  readonly stage: EngineStage | undefined;
  private applied = 0;

  constructor(instances: readonly ScorerInstance[], options: EngineOptions) {
    const names = new Set<string>();
    for (const instance of instances) {
      if (names.has(instance.name)) throw new ParameterError('engine', 'instances', `holds two scorer instances named "${instance.name}"`);
      names.add(instance.name);
    }
    this.instances = instances;
    this.quality = options.quality;
    this.observe = options.observe;
    this.observePlaces = options.observePlaces ?? true;
    this.stage = options.stage;
  }

  /** Whether an observer wants each event's place (so a replay must build it). */
  get observes(): boolean {
    return this.observe !== undefined && this.observePlaces;
  }

  /** Events applied so far. */
  get count(): number {
    return this.applied;
  }

  /**
   * Applies one validated event to every instance. A domain action that its domain rejects
   * throws before any scorer changes; the error names `place`.
   */
  apply(event: StandingEvent, place?: Place): void {
    const resolved = this.resolve(event, place);
    this.applied++;
    this.settle(event, resolved, place);
  }

  /**
   * The scorers' part of applying `event`, once the quality stage gave `resolved`: every instance
   * evolves on it, or, when it is no player's contribution (null), only moves the community's
   * clock to the event's time (docs/spec.md §1: every accepted event moves it).
   */
  settle(event: StandingEvent, resolved: StandingEvent | null, place?: Place): void {
    if (resolved !== null) this.evolve(resolved, place);
    else for (const instance of this.instances) instance.scorer.advance?.(instance.state, event.time, event.community);
    this.stage?.applied(event);
  }

  /**
   * The quality stage alone: the event as scorers should see it (a domain action with its
   * delta), or null when it is no player's contribution. Domain states change; scorers do not.
   */
  resolve(event: StandingEvent, place?: Place): StandingEvent | null {
    try {
      return this.quality.resolve(event);
    } catch (error) {
      throw place === undefined ? error : locate(error, place);
    }
  }

  /**
   * Applies an event the scorers do not use, read without its body (a skimming replay of a stored
   * log): every instance moves the clock of `community` to `time`, as its `evolve` would on such
   * an event (Scorer.advance). Only for an event of a type no instance uses that the quality
   * stage passes on unchanged (anything but an action naming a domain).
   */
  passOver(community: string, time: number): void {
    for (const instance of this.instances) instance.scorer.advance?.(instance.state, time, community);
  }

  /** Moves every instance's clock of every community to `time` (see Scorer.advance): expiry is then evaluated at `time` (`--now`). */
  advance(time: number): void {
    for (const instance of this.instances) instance.scorer.advance?.(instance.state, time);
  }

  /** The scorers alone: applies an event `resolve` returned to every instance. */
  evolve(resolved: StandingEvent, place?: Place): void {
    this.observe?.(resolved, place);
    const instances = this.instances;
    for (let i = 0; i < instances.length; i++) {
      const instance = instances[i]!;
      instance.scorer.evolve(instance.state, resolved);
    }
  }
}

/** A scorer instance with resolved parameters and a fresh state. */
export function instantiate<S extends AnyScorer>(
  scorer: S,
  input: Readonly<Record<string, unknown>> = {},
  name?: string,
): ScorerInstance<S> {
  const params = scorer.params.resolve(input) as Readonly<Record<string, unknown>>;
  const state = scorer.initialState(params) as ReturnType<S['initialState']>;
  return { name: name ?? `${scorer.id} ${formatParams(params)}`, scorer, params, state };
}
