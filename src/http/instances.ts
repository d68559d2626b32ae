/** Picking the scorer instance a request means: by instance name, or by scorer id and parameters. */
import type { ScorerInstance } from '../engine/engine.js';
import { formatParams, splitAssignment } from '../params/format.js';
import { withDefences } from '../scorers/defences.js';
import type { LiveEngine } from '../service/live-engine.js';
import { HttpProblem } from './errors.js';

/** `T=8,x=10,k=4` → {T: '8', …}; a comma only separates where `key=` follows, so `observers=a,b` stays whole. */
export function parseParamsText(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(/,(?=\s*[A-Za-z]\w*=)/)) {
    const assignment = splitAssignment(part);
    if (assignment === undefined) throw new HttpProblem(400, 'REQUEST_INVALID', `params: "${part}" is not key=value`);
    out[assignment.key] = assignment.value;
  }
  return out;
}

/**
 * The instance `scorer` names: an instance name; or, given `params`, the instance of scorer id
 * `scorer` with exactly those parameters (the defaults of the instances' defences setting filled
 * in, as their names are read); or the only instance of a scorer id. Throws 404/400 naming the choices.
 */
export function pickInstance(live: Pick<LiveEngine, 'instances'>, scorer: string, params?: Record<string, string>): ScorerInstance {
  const hasParams = params !== undefined && Object.keys(params).length > 0;
  const byName = live.instances.find((i) => i.name === scorer);
  if (byName !== undefined && !hasParams) return byName;
  const candidates = live.instances.filter((i) => i.scorer.id === scorer);
  const names = live.instances.map((i) => `"${i.name}"`).join(', ');
  if (candidates.length === 0) throw new HttpProblem(404, 'NOT_FOUND', `no scorer instance "${scorer}" is configured (configured: ${names})`);
  if (!hasParams) {
    if (candidates.length === 1) return candidates[0]!;
    throw new HttpProblem(400, 'REQUEST_INVALID', `${scorer} runs as ${candidates.map((i) => `"${i.name}"`).join(', ')}: name one, or give params`);
  }
  const first = candidates[0]!;
  const wanted = formatParams(first.scorer.params.resolve(withDefences(first.scorer.id, first.defences ?? 'published', params)) as Record<string, unknown>);
  const match = candidates.find((i) => formatParams(i.params) === wanted);
  if (match === undefined) throw new HttpProblem(404, 'NOT_FOUND', `no ${scorer} instance runs with ${wanted} (configured: ${candidates.map((i) => `"${i.name}"`).join(', ')})`);
  return match;
}
