/**
 * Compressed sparse rows of incoming edges, built once per computation: for node j, its edges
 * are `sources[offsets[j] .. offsets[j + 1])` with `weights` beside them. Two passes over the
 * edge list, no per-edge objects.
 */
export interface IncomingCsr {
  readonly nodes: number;
  readonly offsets: Int32Array;
  readonly sources: Int32Array;
  readonly weights: Float64Array;
}

/**
 * CSR of the edges (from[e] → to[e]) for which `weight(e)` is not null, over `nodes` nodes.
 * `edges` is how many entries of the arrays to look at.
 */
export function incomingCsr(
  nodes: number,
  edges: number,
  from: Int32Array,
  to: Int32Array,
  weight: (edge: number) => number | null,
): IncomingCsr {
  const kept = new Float64Array(edges);
  const keep = new Uint8Array(edges);
  const offsets = new Int32Array(nodes + 1);
  for (let e = 0; e < edges; e++) {
    const w = weight(e);
    if (w === null) continue;
    keep[e] = 1;
    kept[e] = w;
    offsets[to[e]! + 1]!++;
  }
  for (let j = 0; j < nodes; j++) offsets[j + 1]! += offsets[j]!;
  const total = offsets[nodes]!;
  const sources = new Int32Array(total);
  const weights = new Float64Array(total);
  const fill = offsets.slice(0, nodes);
  for (let e = 0; e < edges; e++) {
    if (keep[e] === 0) continue;
    const at = fill[to[e]!]!++;
    sources[at] = from[e]!;
    weights[at] = kept[e]!;
  }
  return { nodes, offsets, sources, weights };
}

/** How an iterative computation ended. */
export interface IterationReport {
  readonly iterations: number;
  /** The residual after each iteration (RMSD for trust, largest change for reports). */
  readonly residuals: readonly number[];
  readonly converged: boolean;
  readonly milliseconds: number;
}
