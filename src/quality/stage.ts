/**
 * The quality stage: per community, one state per quality domain. It gives every domain
 * `action` its delta once, before any scorer sees it, so several cqr parameterizations share
 * one community state.
 */
import { EventValidationError } from '../errors.js';
import { MAX_DELTA } from '../events/bounds.js';
import type { ActionEvent, StandingEvent } from '../events/types.js';
import { parseExactParts, stringifyExactParts, type TextParts } from '../util/json-parts.js';
import type { AnyQualityDomain } from './domain.js';

export interface QualityStageOptions {
  /** The domains actions may name (default: all built-in ones). */
  readonly domains: readonly AnyQualityDomain[];
  /** Options per domain name, resolved by each domain's definition. */
  readonly options?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

export class QualityStage {
  private readonly domains = new Map<string, { domain: AnyQualityDomain; options: object }>();
  private readonly states = new Map<string, Map<string, unknown>>();

  constructor({ domains, options = {} }: QualityStageOptions) {
    for (const domain of domains) {
      this.domains.set(domain.name, { domain, options: domain.options.resolve(options[domain.name]) });
    }
    for (const name of Object.keys(options)) {
      if (!this.domains.has(name)) {
        throw new EventValidationError(undefined, 'domain', `options were given for unknown domain "${name}"`);
      }
    }
  }

  /**
   * The event a scorer should see: a domain action with its `delta` filled in, any other event
   * unchanged, or `null` when a domain action is not a player's contribution. A computed delta
   * is clamped to ±MAX_DELTA, like the deltas clients may send, so no sum of them overflows.
   */
  resolve(event: StandingEvent): StandingEvent | null {
    if (event.type !== 'action' || event.domain === undefined) return event;
    const delta = this.apply(event);
    return delta === null ? null : { ...event, delta: Math.min(MAX_DELTA, Math.max(-MAX_DELTA, delta)) };
  }

  /** Q of `domain` in `community` now (0 for a community it has not seen). */
  quality(community: string, domain: string): number {
    const entry = this.entry(domain);
    return entry.domain.quality(this.stateOf(community, domain, entry));
  }

  /** The domain states of `community` as text (in parts when too long for one string), for a checkpoint; undefined when it has none. */
  snapshot(community: string): TextParts | undefined {
    const byDomain = this.states.get(community);
    if (byDomain === undefined) return undefined;
    const saved: Record<string, unknown> = {};
    for (const [name, state] of byDomain) saved[name] = this.entry(name).domain.snapshot(state);
    const parts = stringifyExactParts(saved);
    return parts.length === 1 ? parts[0]! : parts;
  }

  /** Replaces the domain states of `community` with a snapshot's, or forgets them (undefined). */
  restore(community: string, snapshot: TextParts | undefined): void {
    if (snapshot === undefined) {
      this.states.delete(community);
      return;
    }
    const byDomain = new Map<string, unknown>();
    for (const [name, data] of Object.entries(parseExactParts<Record<string, unknown>>(snapshot))) {
      const entry = this.entry(name);
      byDomain.set(name, entry.domain.restore(entry.options, data));
    }
    this.states.set(community, byDomain);
  }

  private apply(action: ActionEvent): number | null {
    const name = action.domain!;
    const entry = this.entry(name);
    return entry.domain.apply(this.stateOf(action.community, name, entry), action);
  }

  private entry(name: string): { domain: AnyQualityDomain; options: object } {
    const entry = this.domains.get(name);
    if (entry === undefined) {
      throw new EventValidationError(undefined, 'domain', `"${name}" is not a known domain (known: ${[...this.domains.keys()].join(', ')})`);
    }
    return entry;
  }

  private stateOf(community: string, name: string, entry: { domain: AnyQualityDomain; options: object }): unknown {
    let byDomain = this.states.get(community);
    if (byDomain === undefined) {
      byDomain = new Map();
      this.states.set(community, byDomain);
    }
    let state = byDomain.get(name);
    if (state === undefined) {
      state = entry.domain.initialState(entry.options);
      byDomain.set(name, state);
    }
    return state;
  }
}
