/**
 * One scorer's explanation of a score in human form, whatever its shape: lists of records (the
 * deltas, events, ratings, reports or messages) become tables, other values a list of facts,
 * the parameters a list of named values. Field names read as plain labels, numbers are rounded
 * (no floating-point noise), event times are local with the zone, shares are percentages. The
 * API pages the explanation's list: the view asks for the last SHOWN entries only (`order=desc`,
 * last first) and shows them in the list's own order, with the list's total.
 */
import type { ComponentChildren } from 'preact';
import { formatNumber, formatPercent, label } from '../format.js';
import { Time } from './Time.js';
import { UserText } from './UserText.js';

export const SHOWN = 25;

/** What the API says about the page of the explanation's list it sent. */
export interface ExplanationPage {
  list: string;
  total: number;
  order: 'asc' | 'desc';
}

/** Fields the page already says (whose explanation it is), never repeated. */
const SKIPPED = new Set(['player', 'community']);
/** Fields that hold a share in [0, 1], shown as a percentage. */
const SHARES = new Set(['share']);

/** One value in human form; `field` says how to read a number (a time, a share). */
export function Value({ field, value }: { field: string; value: unknown }): ComponentChildren {
  if (typeof value === 'number') {
    if (field === 'time' && value > 1e11) return <Time at={value} />;
    if (SHARES.has(field)) return formatPercent(value);
    return formatNumber(value);
  }
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return <UserText text={value.map((v) => (typeof v === 'number' ? formatNumber(v) : String(v))).join(', ')} />;
  if (typeof value === 'object') {
    const text = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${label(k)} ${typeof v === 'number' ? formatNumber(v) : String(v)}`)
      .join(', ');
    return <UserText text={text} />;
  }
  return <UserText text={String(value)} />;
}

function isRecordList(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
}

/** A scorer's parameters, each by its own name with its value. */
export function Parameters({ params }: { params: Record<string, unknown> }) {
  return (
    <details class="params">
      <summary>Parameters</summary>
      <dl>
        {Object.entries(params).map(([k, v]) => (
          <div key={k}>
            <dt>
              <code>{k}</code>
            </dt>
            <dd>{String(v)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

export function Explanation({ explanation, page }: { explanation: unknown; page?: ExplanationPage }) {
  if (typeof explanation !== 'object' || explanation === null) return <p>{Value({ field: '', value: explanation })}</p>;
  const entries = Object.entries(explanation as Record<string, unknown>)
    .filter(([k]) => !SKIPPED.has(k))
    .map(([k, v]): [string, unknown] => (k === page?.list && Array.isArray(v) && page.order === 'desc' ? [k, [...(v as unknown[])].reverse()] : [k, v]));
  const totalOf = (name: string, list: readonly unknown[]) => (name === page?.list ? page.total : list.length);
  const params = entries.find(([k, v]) => k === 'params' && typeof v === 'object' && v !== null)?.[1] as Record<string, unknown> | undefined;
  const facts = entries.filter(([k, v]) => k !== 'params' && !isRecordList(v) && !(k === page?.list && Array.isArray(v) && v.length === 0));
  const lists = entries.filter(([, v]) => isRecordList(v)) as [string, Record<string, unknown>[]][];
  return (
    <div class="explanation">
      {facts.length > 0 && (
        <dl>
          {facts.map(([k, v]) => (
            <div key={k}>
              <dt>{label(k)}</dt>
              <dd>
                {Value({ field: k, value: v })}
                {Array.isArray(v) && totalOf(k, v) > v.length ? ` (the last ${v.length} of ${totalOf(k, v)})` : ''}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {lists.map(([name, list]) => {
        const columns = [...new Set(list.flatMap((r) => Object.keys(r)))];
        const shown = list.slice(-SHOWN);
        const total = totalOf(name, list);
        return (
          <div key={name} class="table-wrap">
            <table class="stack">
              <caption>
                {label(name)} {total > shown.length ? `(the last ${shown.length} of ${total})` : `(${total})`}
              </caption>
              <thead>
                <tr>
                  {columns.map((c) => (
                    <th key={c} scope="col">
                      {label(c)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {shown.map((r, i) => (
                  <tr key={i}>
                    {columns.map((c) => (
                      <td key={c} data-label={label(c)}>
                        {Value({ field: c, value: r[c] })}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
      {params !== undefined && <Parameters params={params} />}
    </div>
  );
}
