/**
 * How a score looks in a table: a bar on the range the scorer's instance declares (GET
 * /v1/scorers, `bar`) and the score, rounded. `signed` (cqr, trust): from a middle line at 0,
 * red to the left (harmful), green to the right. `floor`: filled from the floor to the ceiling;
 * with bands (reliability: from 0 to 1) coloured by the row's band, else (chat: from repMin to
 * repMax) shading from red near the floor to green near the ceiling. `harm` (reports): filled
 * from 0 to the community's largest score, all red, deeper the fuller. BarLegend says this under
 * the ranking's title.
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
}

const clamp = (x: number) => Math.min(1, Math.max(0, x));

export function ScoreBar({ scale: declared, score, range, band }: Props) {
  const value = <span class="value">{formatNumber(score)}</span>;
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
    const colour = band !== undefined ? (BAND_COLOURS[band] ?? BAND_COLOURS.none!) : `hsl(${Math.round(share * 120)}, 60%, 42%)`;
    style = { width: `${share * 100}%`, left: '0', background: colour };
    described = `${band !== undefined ? `band ${band}, ` : ''}${formatPercent(share)} of the way from ${formatNumber(scale.floor)} to ${formatNumber(scale.ceiling)}`;
  } else {
    const share = clamp(score / scale.max);
    style = { width: `${share * 100}%`, left: '0', background: `rgba(210, 59, 59, ${0.35 + 0.65 * share})` };
    described = `${formatPercent(share)} of the community's highest score`;
  }
  return (
    <span class="score">
      <span class={scale.kind === 'signed' ? 'bar two-sided' : 'bar'} role="img" aria-label={described} data-kind={scale.kind} data-band={band}>
        <span class="fill" style={style} />
      </span>
      {value}
    </span>
  );
}

/** What the bars of a ranking mean, in one line under its title, with a swatch per band for a banded score. */
export function BarLegend({ scale }: { scale: Scorer['bar'] }) {
  if (scale.kind === 'signed') {
    const range = scale.span === undefined ? "the community's largest score either way" : `${formatNumber(-scale.span)} to ${formatNumber(scale.span)}`;
    return (
      <p class="legend" data-testid="bar-legend">
        Bar: the score from a middle line at 0, <span class="swatch" style={{ background: RED }} /> red to the left (harmful), <span class="swatch" style={{ background: GREEN }} /> green to the right, full at {range}.
      </p>
    );
  }
  if (scale.kind === 'harm') {
    return (
      <p class="legend" data-testid="bar-legend">
        Bar: the score from 0 to the community's largest, <span class="swatch" style={{ background: RED }} /> all of it harmful: deeper red the fuller.
      </p>
    );
  }
  const { bands } = scale;
  if (bands === undefined || bands.length === 0) {
    return (
      <p class="legend" data-testid="bar-legend">
        Bar: the score from the floor {formatNumber(scale.floor)} to the ceiling {formatNumber(scale.ceiling)}, <span class="swatch" style={{ background: 'hsl(0, 60%, 42%)' }} /> red near the
        floor shading to <span class="swatch" style={{ background: 'hsl(120, 60%, 42%)' }} /> green near the ceiling.
      </p>
    );
  }
  return (
    <p class="legend" data-testid="bar-legend">
      Bar: the score from {formatNumber(scale.floor)} to {formatNumber(scale.ceiling)}, coloured by its band
      {scale.windowDays !== undefined ? ` over the last ${formatNumber(scale.windowDays)} days` : ''}:{' '}
      {bands.map((b, i) => (
        <span key={b.band} class="legend-band">
          <span class="swatch" style={{ background: BAND_COLOURS[b.band] ?? BAND_COLOURS.none }} /> {b.band} {b.from !== undefined ? `from ${formatNumber(b.from)}` : `below ${formatNumber(bands[i - 1]?.from ?? scale.floor)}`}
          {i < bands.length - 1 ? ', ' : '.'}
        </span>
      ))}
    </p>
  );
}
