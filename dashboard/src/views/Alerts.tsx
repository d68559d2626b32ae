/** The alert feed: the latest alerts, then each new one as the service raises it (SSE). */
import { useEffect, useState } from 'preact/hooks';
import { api, type Alert } from '../api.js';
import { Time } from '../components/Time.js';
import { formatNumber } from '../format.js';
import { UserLink, UserText } from '../components/UserText.js';
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

export function Alerts({ community, playerHref }: { community: string; playerHref: (player: string, community: string) => string }) {
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
            {/* A rule's circuit breaker (scorer rule:<name>) is about no player. */}
            {a.player === '' ? <a href={href(['rules'], { community: a.community })}>rules</a> : <UserLink href={playerHref(a.player, a.community)} text={a.player} />}{' '}
            <span>
              {a.scorer} · <UserText text={a.threshold} /> · score {formatNumber(a.score)}
            </span>{' '}
            <span class="muted">
              <Time at={a.time} />
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
