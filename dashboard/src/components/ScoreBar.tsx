/**
 * How a score looks in a table. reliability: Gibbon's bar, coloured by band, as long as the
 * confidence (bar = min(1, confidence / 10)). The others: a bar scaled to the community's score
 * range, drawn from zero, red on the harmful side (low scores; high ones for reports' bad-player
 * points) and green on the other.
 */
export const BAND_COLOURS: Record<string, string> = { green: '#2e9e4f', yellow: '#d9b300', orange: '#e8772e', red: '#d23b3b', none: '#999' };

export function formatScore(score: number): string {
  if (Number.isInteger(score)) return String(score);
  return Math.abs(score) >= 100 ? score.toFixed(1) : score.toPrecision(3);
}

interface Props {
  scorerId: string;
  score: number;
  range: { min: number; max: number };
  band?: string;
  bar?: number;
}

export function ScoreBar({ scorerId, score, range, band, bar }: Props) {
  if (scorerId === 'reliability' && band !== undefined && bar !== undefined) {
    return (
      <span class="score">
        <span class="bar" role="img" aria-label={`band ${band}, confidence bar ${Math.round(bar * 100)}%`}>
          <span class="fill" style={{ width: `${bar * 100}%`, background: BAND_COLOURS[band] ?? '#999' }} />
        </span>
        <span class="value">{formatScore(score)}</span>
      </span>
    );
  }
  const highIsBad = scorerId === 'reports';
  const span = Math.max(Math.abs(range.min), Math.abs(range.max)) || 1;
  const twoSided = range.min < 0;
  const share = Math.min(1, Math.abs(score) / span);
  const bad = highIsBad ? score > 0 : score < 0;
  const colour = bad ? '#d23b3b' : '#2e9e4f';
  const style = twoSided
    ? { width: `${share * 50}%`, left: score < 0 ? `${50 - share * 50}%` : '50%', background: colour }
    : { width: `${share * 100}%`, left: '0', background: highIsBad ? `rgba(210, 59, 59, ${0.35 + 0.65 * share})` : colour };
  return (
    <span class="score">
      <span class={twoSided ? 'bar two-sided' : 'bar'} role="img" aria-label={`${Math.round(share * 100)}% of the largest score`}>
        <span class="fill" style={style} />
      </span>
      <span class="value">{formatScore(score)}</span>
    </span>
  );
}
