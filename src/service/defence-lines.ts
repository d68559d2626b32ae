/**
 * What `standing serve` and `standing worker` say at start about the defences they run: the
 * configuration's setting, each instance's defences, and the ones that engage per community at
 * the first event they read (GET /v1/scorers?community=NAME says where they are engaged).
 */
import type { ScorerInstance } from '../engine/engine.js';
import { defencesOn } from '../scorers/defences.js';

/** The start lines, each indented by two spaces; `setting` is the configuration's `defences`. */
export function defenceLines(instances: readonly ScorerInstance[], setting: string): string[] {
  const runs = instances.map((i) => ({ name: i.name, on: defencesOn(i.scorer, i.params) })).filter((r) => r.on.length > 0);
  const lines = [
    runs.length === 0
      ? `  defences: ${setting}: none, every scorer runs its paper's method${setting === 'published' ? ' ("defences": "recommended" runs docs/abuse.md\'s)' : ''}`
      : `  defences: ${setting}: ${runs.map((r) => `${r.name} (${r.on.map((d) => `${d.param}=${d.value}`).join(' ')})`).join(', ')}`,
  ];
  for (const { name, on } of runs) {
    const waiting = new Map<string, string[]>();
    for (const d of on) if (d.needs !== undefined) waiting.set(d.needs, [...(waiting.get(d.needs) ?? []), d.param]);
    for (const [needs, params] of waiting) {
      lines.push(`  ${name}: ${params.join(' and ')} engage${params.length === 1 ? 's' : ''} in each community at its first ${needs} event, and stay${params.length === 1 ? 's' : ''} off where none arrives (GET /v1/scorers?community=NAME)`);
    }
  }
  return lines;
}
