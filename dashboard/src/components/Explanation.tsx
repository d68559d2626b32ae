/**
 * One scorer's explanation of a score, whatever its shape: lists of records (the deltas,
 * events, ratings, reports or messages) become tables, other values a list of facts. The API
 * pages the explanation's list: the view asks for the last SHOWN entries only (`order=desc`,
 * last first) and shows them in the list's own order, with the list's total.
 */
import { formatScore } from './ScoreBar.js';

export const SHOWN = 25;

/** What the API says about the page of the explanation's list it sent. */
export interface ExplanationPage {
  list: string;
  total: number;
  order: 'asc' | 'desc';
}

function cell(value: unknown): string {
  if (typeof value === 'number') return formatScore(value);
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function isRecordList(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
}

export function Explanation({ explanation, page }: { explanation: unknown; page?: ExplanationPage }) {
  if (typeof explanation !== 'object' || explanation === null) return <p>{cell(explanation)}</p>;
  const entries = Object.entries(explanation as Record<string, unknown>).map(([k, v]): [string, unknown] =>
    k === page?.list && Array.isArray(v) && page.order === 'desc' ? [k, [...(v as unknown[])].reverse()] : [k, v],
  );
  const totalOf = (name: string, list: readonly unknown[]) => (name === page?.list ? page.total : list.length);
  const facts = entries.filter(([, v]) => !isRecordList(v));
  const lists = entries.filter(([, v]) => isRecordList(v)) as [string, Record<string, unknown>[]][];
  return (
    <div class="explanation">
      {facts.length > 0 && (
        <dl>
          {facts.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>
                {Array.isArray(v) ? v.map(cell).join(', ') : cell(v)}
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
            <table>
              <caption>
                {name} {total > shown.length ? `(the last ${shown.length} of ${total})` : `(${total})`}
              </caption>
              <thead>
                <tr>{columns.map((c) => <th key={c} scope="col">{c}</th>)}</tr>
              </thead>
              <tbody>
                {shown.map((r, i) => (
                  <tr key={i}>{columns.map((c) => <td key={c}>{cell(r[c])}</td>)}</tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
    </div>
  );
}
