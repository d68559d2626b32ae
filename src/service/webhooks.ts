/**
 * Webhook deliveries of alerts: each batch of stored alerts is POSTed as JSON
 * `{ "alerts": [...] }` to every configured URL, signed with HMAC-SHA256 when the hook has a
 * secret (header `x-standing-signature: sha256=<hex>`). A failed delivery (network error or a
 * non-2xx answer) is retried after retryMs, 2·retryMs, 4·retryMs, … up to maxAttempts (default
 * 5) attempts; deliveries to one URL stay in order. Pending deliveries live in memory: alerts
 * are in the store and `GET /v1/alerts?after=` catches up after a restart.
 */
import { createHmac } from 'node:crypto';
import type { StoredAlert } from '../store/types.js';
import type { WebhookConfig } from './config.js';

export interface DeliveryReport {
  readonly url: string;
  readonly attempt: number;
  readonly ok: boolean;
  readonly status?: number;
  readonly error?: string;
}

export class WebhookSender {
  private readonly chains = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly hooks: readonly WebhookConfig[],
    private readonly retryMs: number,
    private readonly report: (delivery: DeliveryReport) => void,
  ) {}

  send(alerts: readonly StoredAlert[]): void {
    if (alerts.length === 0 || this.stopped) return;
    const body = JSON.stringify({ alerts });
    for (const hook of this.hooks) {
      const previous = this.chains.get(hook.url) ?? Promise.resolve();
      this.chains.set(hook.url, previous.then(() => this.deliver(hook, body)));
    }
  }

  /** Resolves when every delivery queued so far has succeeded or given up. */
  async settled(): Promise<void> {
    await Promise.all(this.chains.values());
  }

  stop(): void {
    this.stopped = true;
  }

  private async deliver(hook: WebhookConfig, body: string): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'standing-webhooks' };
    if (hook.secret !== undefined) headers['x-standing-signature'] = `sha256=${createHmac('sha256', hook.secret).update(body).digest('hex')}`;
    const attempts = hook.maxAttempts ?? 5;
    for (let attempt = 1; attempt <= attempts && !this.stopped; attempt++) {
      try {
        const response = await fetch(hook.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        this.report({ url: hook.url, attempt, ok: response.ok, status: response.status });
        if (response.ok) return;
      } catch (error) {
        this.report({ url: hook.url, attempt, ok: false, error: (error as Error).message });
      }
      if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, this.retryMs * 2 ** (attempt - 1)).unref());
    }
  }
}
