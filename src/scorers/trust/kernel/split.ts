/**
 * How a trust computation's nodes are split between its two threads (../kernel.ts): at a block
 * boundary near half of the work.
 */

/**
 * Nodes come in blocks of BLOCK: the threads split at a block boundary, and the RMSD is summed
 * per block in block order (../kernel.ts).
 */
export const BLOCK = 1024;

/**
 * What a node costs an iteration beyond its edges (its rater terms, its row's setup and
 * division), in edges: about 3.5 when timing each thread's part on the bench graph.
 */
const NODE_COST_IN_EDGES = 4;

/** A block boundary near half of the work (edges, plus NODE_COST_IN_EDGES per node), so both threads take about as long. */
export function balancedSplit(offsets: Int32Array, n: number): number {
  const half = (offsets[n]! + NODE_COST_IN_EDGES * n) / 2;
  let split = 0;
  while (split < n && offsets[split]! + NODE_COST_IN_EDGES * split < half) split += BLOCK;
  return Math.min(split, n);
}
