/** The alert feed: the latest alerts, then each new one as the service raises it (SSE). */
import { useEffect, useState } from 'preact/hooks';
import { api, type Alert } from '../api.js';
import { formatScore } from '../components/ScoreBar.js';
import { href } from '../route.js';

const SHOWN = 100;

export function useAlerts(community: string): { alerts: Alert[]; error?: string; live: boolean } {
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const [error, setError] = useState<string>();
  const [live, setLive] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    setAlerts([]);
    setLive(false);
    void (async () => {
      try {
        const latest = (await api.alerts({ community, order: 'desc', limit: SHOWN }, { signal: controller.signal })).alerts;
        setAlerts(latest);
        setLive(true);
        await api.streamAlerts({ community, after: latest[0]?.id ?? 0 }, (alert) => setAlerts((list) => [alert, ...list].slice(0, SHOWN)), { signal: controller.signal });
      } catch (e) {
        if (!controller.signal.aborted) setError((e as Error).message);
      }
      setLive(false);
    })();
    return () => controller.abort();
  }, [community]);
  return { alerts, error, live };
}

export function Alerts({ community }: { community: string }) {
  const { alerts, error, live } = useAlerts(community);
  return (
    <section aria-labelledby="alerts-title">
      <h2 id="alerts-title">
        Alerts <span class="muted">in {community}</span> <span class={live ? 'live on' : 'live'}>{live ? '● live' : '○ not live'}</span>
      </h2>
      {error !== undefined && <p class="error">{error}</p>}
      {alerts.length === 0 && error === undefined && <p class="muted">No alerts yet.</p>}
      <ol class="feed" aria-live="polite">
        {alerts.map((a) => (
          <li key={a.id} class={a.kind}>
            <span class="kind">{a.kind === 'raised' ? '▼ raised' : '▲ cleared'}</span>{' '}
            <a href={href(['player', a.player], { community: a.community })}>{a.player}</a>{' '}
            <span>
              {a.scorer} · {a.threshold} · score {formatScore(a.score)}
            </span>{' '}
            <time class="muted" dateTime={new Date(a.time).toISOString()}>
              {new Date(a.time).toISOString().replace('T', ' ').slice(0, 16)}
            </time>
          </li>
        ))}
      </ol>
    </section>
  );
}
