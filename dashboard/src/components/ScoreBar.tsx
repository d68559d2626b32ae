/**
 * How a score looks in a table: a bar on the range the scorer's instance declares (GET
 * /v1/scorers, `bar`) and the score, rounded. A row with a band and a bar length (reliability):
 * Gibbon's bar, coloured by band, as long as the confidence (bar = min(1, confidence / 10)).
 * `signed` (cqr, trust): from a middle line at 0, red to the left (harmful), green to the right.
 * `floor` (chat): filled from its floor (repMin) to its ceiling (repMax), red near the floor
 * shading to green near the ceiling. `harm` (reports): filled from 0 to the community's largest
 * score, all red, deeper the fuller.
 */
import { formatNumber, formatPercent } from '../format.js';
import type { Scorer } from '../api.js';

export const BAND_COLOURS: Record<string, string> = { green: '#2e9e4f', yellow: '#d9b300', orange: '#e8772e', red: '#d23b3b', none: '#999' };
const RED = '#d23b3b';
const GREEN = '#2e9e4f';

interface Props {
  /** The range the scorer instance's bar spans. */
  scale: Scorer['bar'];
  score: number;
  /** The community's smallest and largest score. */
  range: { min: number; max: number };
  band?: string;
  bar?: number;
}

const clamp = (x: number) => Math.min(1, Math.max(0, x));

export function ScoreBar({ scale: declared, score, range, band, bar }: Props) {
  const value = <span class="value">{formatNumber(score)}</span>;
  if (band !== undefined && bar !== undefined) {
    return (
      <span class="score">
        <span class="bar" role="img" aria-label={`band ${band}, confidence bar ${formatPercent(bar)}`}>
          <span class="fill" style={{ width: `${bar * 100}%`, background: BAND_COLOURS[band] ?? '#999' }} />
        </span>
        {value}
      </span>
    );
  }
  const scale =
    declared.kind === 'signed'
      ? { kind: 'signed' as const, span: declared.span ?? (Math.max(Math.abs(range.min), Math.abs(range.max)) || 1) }
      : declared.kind === 'floor'
        ? { kind: 'floor' as const, floor: declared.floor, ceiling: declared.ceiling > declared.floor ? declared.ceiling : declared.floor + 1 }
        : { kind: 'harm' as const, max: range.max > 0 ? range.max : 1 };
  let style: Record<string, string>;
  let described: string;
  if (scale.kind === 'signed') {
    const share = clamp(Math.abs(score) / scale.span);
    style = { width: `${share * 50}%`, left: score < 0 ? `${50 - share * 50}%` : '50%', background: score < 0 ? RED : GREEN };
    described = `${formatPercent(share)} of the way from 0 to the ${score < 0 ? 'lowest' : 'highest'} end`;
  } else if (scale.kind === 'floor') {
    const share = clamp((score - scale.floor) / (scale.ceiling - scale.floor));
    style = { width: `${share * 100}%`, left: '0', background: `hsl(${Math.round(share * 120)}, 60%, 42%)` };
    described = `${formatPercent(share)} of the way from the floor ${formatNumber(scale.floor)} to the ceiling ${formatNumber(scale.ceiling)}`;
  } else {
    const share = clamp(score / scale.max);
    style = { width: `${share * 100}%`, left: '0', background: `rgba(210, 59, 59, ${0.35 + 0.65 * share})` };
    described = `${formatPercent(share)} of the community's highest score`;
  }
  return (
    <span class="score">
      <span class={scale.kind === 'signed' ? 'bar two-sided' : 'bar'} role="img" aria-label={described} data-kind={scale.kind}>
        <span class="fill" style={style} />
      </span>
      {value}
    </span>
  );
}
