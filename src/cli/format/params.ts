/** Scorer parameters as people read them in output: `T=8 x=10 k=4`. */
import { formatParams } from '../../params/format.js';

export function describeParams(params: object): string {
  return formatParams(params, ' ');
}
