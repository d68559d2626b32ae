/** What `standing explain` hands a scorer's explainer, and what it gets back. */
import type { AnyScorer } from '../../scorers/scorer.js';
import { UsageError } from '../usage-error.js';

export interface ExplainRequest {
  readonly scorer: AnyScorer;
  readonly file: string;
  readonly player: string;
  readonly community: string;
  readonly set: readonly string[];
  readonly qualityFile: string | undefined;
  /** `--now`: evaluate as of this moment. */
  readonly now: number | undefined;
}

export interface Explained {
  /** Printed with --format json. */
  readonly json: unknown;
  /** Printed for people. */
  readonly text: string;
}

export function unknownPlayer(request: ExplainRequest, what: string): UsageError {
  return new UsageError(`player "${request.player}" has no ${what} in community "${request.community}" of ${request.file}`);
}
