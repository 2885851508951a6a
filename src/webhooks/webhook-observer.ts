// What the dispatcher needs from the process: the engine context, and an observer of its attempts that
// src/operator/metrics.ts implements (a lower layer declares what it needs; ARCHITECTURE.md "Layers").
import type { EngineContext } from '../engine/context.js';

export type WebhookAttemptResult = 'delivered' | 'failed' | 'gone';

/** What the dispatcher reports of its attempts (src/operator/metrics.ts counts them for /metrics). */
export interface WebhookObserver {
  webhook_attempt(result: WebhookAttemptResult, lag_ms: number | null): void;
  webhook_dead_delivery(): void;
}

export interface DispatcherContext extends EngineContext {
  metrics: WebhookObserver;
}
