/**
 * How the dashboard writes numbers, times and field names for people: numbers rounded to what
 * matters (no floating-point noise), event times in the reader's local time with the zone, and
 * plain labels in place of the API's camelCase field names.
 */

/**
 * A number as a person reads it: integers whole (with thousands separators), |x| ≥ 100 to one
 * decimal, |x| ≥ 1 to two, smaller ones to three significant digits; anything below 0.0005 in
 * magnitude (floating-point noise such as 7.30e-18) reads 0.
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return value.toLocaleString('en');
  const abs = Math.abs(value);
  if (abs < 0.0005) return '0';
  if (abs >= 100) return value.toLocaleString('en', { maximumFractionDigits: 1 });
  if (abs >= 1) return value.toLocaleString('en', { maximumFractionDigits: 2 });
  return String(Number(value.toPrecision(3)));
}

/** A share in [0, 1] as a whole percentage. */
export function formatPercent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });

/** An event time (epoch ms) in the reader's local time with the zone, e.g. "Jul 1, 2024, 02:00 PM GMT+2". */
export function formatTime(epochMs: number): string {
  return dateTime.format(new Date(epochMs));
}

/** A duration in ms as people say it: "3 days", "5 hours", "12 minutes". */
export function formatDuration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ];
  for (const [size, name] of units) {
    if (Math.abs(ms) >= size) {
      const n = Math.round((ms / size) * 10) / 10;
      return `${formatNumber(n)} ${name}${n === 1 ? '' : 's'}`;
    }
  }
  return `${formatNumber(ms)} ms`;
}

/** Plain labels for the API's field names (rows, explanations, parameters). */
const LABELS: Record<string, string> = {
  actions: 'actions',
  confidence: 'confidence (events)',
  band: 'band',
  sent: 'messages sent',
  received: 'messages received',
  ratings: 'ratings received',
  rating: "observer's rating",
  jp: 'judgment points',
  games: 'games played',
  reports: 'reports made',
  reported: 'reports received',
  gamesPerReport: 'games per report',
  reportedBy: 'reported by',
  reporter: 'reporter',
  reporterJp: "reporter's judgment points",
  reporterReports: 'reports the reporter made',
  weight: 'weight',
  window: 'score changes in the window',
  filter: 'sign filter',
  events: 'scored events',
  senders: 'sender list',
  beta: 'gain of a next message',
  observers: 'observers',
  iterations: 'iterations',
  rmsd: 'last change (RMS)',
  cut: 'cut by trust flow',
  rater: 'rater',
  value: 'value',
  ttl: 'time to live',
  decay: 'decay',
  raterReputation: "rater's reputation",
  share: 'share of the weight',
  score: 'score',
  time: 'time',
  kind: 'kind',
  match: 'match',
  reason: 'reason',
  player: 'player',
  flow: 'flow',
  reputation: 'reputation',
};

/** A plain label for a field name: the known ones by table, others with their camelCase split ("gamesPerReport" → "games per report"). */
export function label(field: string): string {
  return LABELS[field] ?? field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * Where a player stands among the others in plain words, from how many of the other ranked
 * players stand strictly better (`worseThan`) and how many are ranked (`of`): "worse than 14 of
 * the 19 other players (74%)", "worse than all 19 other players", "the only player ranked".
 */
export function worseThanText(worseThan: number, of: number): string {
  const others = of - 1;
  if (others <= 0) return 'the only player ranked';
  const players = others === 1 ? 'other player' : 'other players';
  if (worseThan >= others) return others === 1 ? 'worse than the other player' : `worse than all ${others.toLocaleString('en')} ${players}`;
  if (worseThan <= 0) return others === 1 ? 'no worse than the other player' : `worse than none of the ${others.toLocaleString('en')} ${players}`;
  return `worse than ${worseThan.toLocaleString('en')} of the ${others.toLocaleString('en')} ${players} (${formatPercent(worseThan / others)})`;
}
