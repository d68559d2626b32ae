/**
 * What the rules did, per rule, from their fold (./fold.ts): the actions (proposals and
 * sanctions by kind), the players acted on, the escalations (sanctions past a rule's first
 * offence), the sanctions a granted appeal overturned, the breaker's trips, and — against the
 * verdicts people gave on players — precision (of the players acted on that a person judged, the
 * share upheld) and recall (of the players a person upheld, the share the rule acted on). A
 * backtest reports on the rules it replayed; the service on its live rules (GET /v1/rules). Pure.
 */
import type { CompiledRule } from './compile.js';
import type { CommunityRules } from './fold.js';

/** One action of a rule, as the log holds it (or a backtest would have written it). */
export interface RuleDecision {
  readonly id: string;
  readonly community: string;
  readonly rule: string;
  readonly player: string;
  readonly time: number;
  /** `propose` for a proposal (a dry run's included), else the sanction's action. */
  readonly action: 'propose' | 'warn' | 'mute' | 'suspend' | 'ban';
  readonly until?: number;
  /** A sanction's earlier offences counted (0: a first offence). */
  readonly step?: number;
}

export interface RuleReport {
  readonly name: string;
  readonly label: string;
  readonly action: CompiledRule['action'];
  readonly dryRun: boolean;
  readonly when: string;
  readonly ladder: readonly string[];
  /** Proposals and sanctions. */
  readonly actions: number;
  readonly proposals: number;
  readonly sanctions: { readonly warn: number; readonly mute: number; readonly suspend: number };
  /** Distinct players acted on. */
  readonly players: number;
  /** Sanctions for a second or later offence. */
  readonly escalations: number;
  /** Sanctions a granted appeal ended. */
  readonly overturned: number;
  /** Times its circuit breaker tripped. */
  readonly trips: number;
  /** Communities where it is paused now, with when the pause ends (event time). */
  readonly paused: readonly { readonly community: string; readonly since: number; readonly until: number }[];
  /** Of the players acted on: those with a person's verdict, and how it went. */
  readonly verdicts: { readonly judged: number; readonly upheld: number; readonly dismissed: number };
  /** upheld / judged, or null when none was judged. */
  readonly precision: number | null;
  /** Of the players a person upheld in these communities, the share the rule acted on; null when none was upheld. */
  readonly recall: number | null;
  /** Players a person upheld in these communities (recall's denominator). */
  readonly upheldPlayers: number;
}

/** Every action of the rules named `rules` in `states` (community name → state), in time order. */
export function decisionsOf(states: ReadonlyMap<string, CommunityRules>, rules: ReadonlySet<string>): RuleDecision[] {
  const out: RuleDecision[] = [];
  for (const [community, state] of states) {
    for (const [player, fold] of state.players) {
      for (const s of fold.sanctions) {
        if (s.rule === undefined || !rules.has(s.rule)) continue;
        out.push({ id: s.id, community, rule: s.rule, player, time: s.time, action: s.action, ...(s.until === undefined ? {} : { until: s.until }), step: s.step ?? 0 });
      }
      for (const p of fold.proposals) if (rules.has(p.rule)) out.push({ id: p.id, community, rule: p.rule, player, time: p.time, action: 'propose' });
    }
  }
  return out.sort((a, b) => a.time - b.time || (a.community < b.community ? -1 : a.community > b.community ? 1 : 0) || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) || (a.player < b.player ? -1 : a.player > b.player ? 1 : 0));
}

/** The report of each rule of `rules` over `states` (one community's, or every community's). */
export function reportRules(rules: readonly CompiledRule[], states: ReadonlyMap<string, CommunityRules>): RuleReport[] {
  const upheldPlayers = new Set<string>();
  for (const [community, state] of states) for (const [player, fold] of state.players) if (fold.verdict?.outcome === 'upheld') upheldPlayers.add(`${community}\u0000${player}`);
  return rules.map((rule) => {
    const sanctions = { warn: 0, mute: 0, suspend: 0 };
    let proposals = 0;
    let escalations = 0;
    let overturned = 0;
    let trips = 0;
    const players = new Set<string>();
    const verdicts = { judged: 0, upheld: 0, dismissed: 0 };
    const paused: { community: string; since: number; until: number }[] = [];
    for (const [community, state] of states) {
      trips += state.trips.get(rule.name) ?? 0;
      const pause = state.paused.get(rule.name);
      if (pause !== undefined && (state.clock === undefined || state.clock < pause.until)) paused.push({ community, ...pause });
      for (const [player, fold] of state.players) {
        let acted = false;
        for (const s of fold.sanctions) {
          if (s.rule !== rule.name || s.action === 'ban') continue;
          acted = true;
          sanctions[s.action]++;
          if ((s.step ?? 0) > 0) escalations++;
          if (s.ended?.kind === 'appeal') overturned++;
        }
        for (const p of fold.proposals) {
          if (p.rule !== rule.name) continue;
          acted = true;
          proposals++;
        }
        if (!acted) continue;
        players.add(`${community}\u0000${player}`);
        if (fold.verdict === undefined) continue;
        verdicts.judged++;
        verdicts[fold.verdict.outcome]++;
      }
    }
    const hits = [...players].filter((p) => upheldPlayers.has(p)).length;
    return {
      name: rule.name,
      label: rule.label,
      action: rule.action,
      dryRun: rule.dryRun,
      when: rule.when,
      ladder: rule.ladder,
      actions: proposals + sanctions.warn + sanctions.mute + sanctions.suspend,
      proposals,
      sanctions,
      players: players.size,
      escalations,
      overturned,
      trips,
      paused,
      verdicts,
      precision: verdicts.judged === 0 ? null : verdicts.upheld / verdicts.judged,
      recall: upheldPlayers.size === 0 ? null : hits / upheldPlayers.size,
      upheldPlayers: upheldPlayers.size,
    };
  });
}
