// The dashboard's JSON API under /dashboard/api (docs/api.md "Dashboard and documentation"), one file a
// page: sign-in and out, overview, orders, exports, wallet history, keys, webhooks and the transaction PIN.
// Every call uses the session, never an API key; every change goes through the same actor commands as
// the public API.
import type { FundingService } from '../services/funding/funding-service.js';
import type { Deps } from '../front/deps.js';
import type { RouteDef } from '../front/route.js';
import type { OrderDesk } from '../services/order-desk.js';
import type { Dispatcher } from '../webhooks/dispatcher.js';
import type { SessionStore } from './sessions.js';
import { sign_in_session_routes } from './sign-in-routes.js';
import { overview_session_routes } from './overview-routes.js';
import { order_session_routes } from './order-routes.js';
import { export_session_routes } from './export-routes.js';
import { wallet_session_routes } from './wallet-routes.js';
import { key_session_routes } from './key-routes.js';
import { webhook_session_routes } from './webhook-routes.js';
import { pin_session_routes } from './pin-routes.js';

export function session_routes(deps: Deps, sessions: SessionStore, desk: OrderDesk, dispatcher: Dispatcher, funding: FundingService | null = null): RouteDef[] {
  return [
    ...sign_in_session_routes(deps, sessions),
    ...overview_session_routes(deps, desk),
    ...order_session_routes(deps, desk),
    ...export_session_routes(deps, desk),
    ...wallet_session_routes(deps, funding),
    ...key_session_routes(deps),
    ...webhook_session_routes(deps, dispatcher),
    ...pin_session_routes(deps),
  ];
}
