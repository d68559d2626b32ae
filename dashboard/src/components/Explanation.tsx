/**
 * One scorer's explanation of a score, whatever its shape: lists of records (the deltas,
 * events, ratings, reports or messages) become tables, other values a list of facts.
 */
import { formatScore } from './ScoreBar.js';

const SHOWN = 25;

function cell(value: unknown): string {
  if (typeof value === 'number') return formatScore(value);
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function isRecordList(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
}

export function Explanation({ explanation }: { explanation: unknown }) {
  if (typeof explanation !== 'object' || explanation === null) return <p>{cell(explanation)}</p>;
  const entries = Object.entries(explanation as Record<string, unknown>);
  const facts = entries.filter(([, v]) => !isRecordList(v));
  const lists = entries.filter(([, v]) => isRecordList(v)) as [string, Record<string, unknown>[]][];
  return (
    <div class="explanation">
      {facts.length > 0 && (
        <dl>
          {facts.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{Array.isArray(v) ? v.map(cell).join(', ') : cell(v)}</dd>
            </div>
          ))}
        </dl>
      )}
      {lists.map(([name, list]) => {
        const columns = [...new Set(list.flatMap((r) => Object.keys(r)))];
        const shown = list.slice(-SHOWN);
        return (
          <div key={name} class="table-wrap">
            <table>
              <caption>
                {name} {list.length > SHOWN ? `(the last ${SHOWN} of ${list.length})` : `(${list.length})`}
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
