/** A batch the service refused (400 BATCH_REJECTED), its problems named by the lines of the log. */
import type { BatchProblem } from '../../client/types.js';
import { StandingError } from '../../errors.js';

export class RefusedLinesError extends StandingError {
  readonly code = 'BATCH_REJECTED' as const;

  constructor(
    readonly source: string,
    /** Each problem with the line of the log it is about. */
    readonly problems: readonly (BatchProblem & { readonly line: number })[],
    /** The first and last line of the refused batch. */
    readonly batch: readonly [first: number, last: number],
  ) {
    const shown = problems.slice(0, 3).map((p) => `line ${p.line}: ${p.field === '' ? '' : `field "${p.field}" `}${p.reason}`);
    const more = problems.length > 3 ? `; and ${problems.length - 3} more` : '';
    super(`${source} ${shown.join('; ')}${more} (the service refused lines ${batch[0]}–${batch[1]}: nothing of them is stored, every line before them is)`);
  }
}
