/**
 * A community quality domain (Quesada & Villacorta §III.1, docs/spec.md §2.2): it keeps its own
 * community state and turns a domain `action` into Δ = Q(after) − Q(before) (eq. 1).
 */
import type { ActionEvent } from '../events/types.js';
import type { ParamsDefinition } from '../params/define.js';

export interface QualityDomain<O extends object, S> {
  /** The `domain` value of the actions it handles. */
  readonly name: string;
  readonly options: ParamsDefinition<O>;
  initialState(options: Readonly<O>): S;
  /**
   * Applies `action` and returns Δ, or `null` when the action changes the community without
   * being a player's contribution (placing a clustering dot on the board). Throws
   * EventValidationError (bad payload) or EventConflictError (impossible in this state)
   * before changing anything.
   */
  apply(state: S, action: ActionEvent): number | null;
  /** Q of the current state. */
  quality(state: S): number;
  /** The state as JSON-ready data (numbers, strings, arrays), for a checkpoint. */
  snapshot(state: S): unknown;
  /** A state read back from `snapshot`'s data, with the options it was taken with. */
  restore(options: Readonly<O>, data: unknown): S;
}

export type AnyQualityDomain = QualityDomain<any, any>;
