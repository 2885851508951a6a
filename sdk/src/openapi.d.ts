// Generated from billvend's OpenAPI document (GET /v1/openapi.json) by sdk/scripts/generate-types.mjs:
// do not edit. Run `npm run sdk:types` after changing a route or a schema; test/sdk-types.test.ts fails while
// this file is stale.
export interface paths {
    "/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account of the API key
         * @description low_balance_threshold is the setting of the key's environment.
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set the low-balance alert of the key's environment
         * @description low_balance_threshold (NGN, or null to turn it off): the event wallet.low_balance is emitted once each time a debit takes the balance from at or above it to below it. Needs a full-access key.
         */
        patch: operations["patchAccount"];
        trace?: never;
    };
    "/v1/wallet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Wallet balance of the key's environment
         * @description A live key sees the live wallet, a test key the sandbox wallet; nothing crosses between them.
         */
        get: operations["getWallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wallet/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Wallet credits, debits and reversals, newest first */
        get: operations["getWalletTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Active API keys of the account (never their secrets) */
        get: operations["getKeys"];
        put?: never;
        /**
         * Create an API key; its secret is in this response only
         * @description At most 5 active (neither revoked nor expired) keys per account. A key may only grant scopes it has itself; a test key may only create test keys. A key with an expiry creates keys expiring no later; a key with an ip_allowlist creates keys whose allowlist lies within it; the new key's rate limit is the default, or the creating key's if lower. A replay of a creation whose key has since been revoked answers 404 keys.not_found instead of the secret.
         */
        post: operations["postKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key, at once and irreversibly
         * @description Later use of the key answers 401 auth.key_not_found. A key id of another account is 404 keys.not_found. A key may revoke only keys whose scopes it holds itself (a * key holds every scope); a test key may not revoke live keys.
         */
        delete: operations["deleteKeysById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The key's account's own agents, oldest first
         * @description Closed agents are listed too, with status closed.
         */
        get: operations["getAgents"];
        put?: never;
        /**
         * Open an agent under the key's account
         * @description The agent is an account of its own, with its own wallets, keys and PIN, whose parent is the key's account. At most three levels: reseller → super-agent → agent. kyc_level and daily_limit may not be above the parent's; without daily_limit the agent buys under its KYC level's limit, or the parent's limit when that is lower. The password signs the agent in to the dashboard.
         */
        post: operations["postAgents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/commissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the key's account earned on its agents' purchases, by day, agent and product
         * @description Sums the account's commission and commission_reversal wallet entries of the environment (the key's, or environment=) from the Lagos day from to the day to (YYYY-MM-DD, at most 92 days; both default to today), one row per day, agent (the one whose order it was, at any level below) and product; agent_id= keeps one agent's rows.
         */
        get: operations["getAgentsCommissions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An agent below the key's account: balances, status, limits */
        get: operations["getAgentsById"];
        put?: never;
        post?: never;
        /**
         * Close an agent: its balances swept back to its parent, its keys revoked
         * @description In one step: each wallet's balance moves to its parent's wallet (a transfer of kind sweep, reference close/{id}), every key of the agent is revoked, and it is closed for good. An agent with open agents of its own or open orders is 409 agents.not_closable.
         */
        delete: operations["deleteAgentsById"];
        options?: never;
        head?: never;
        /**
         * Suspend or reactivate an agent, or set its daily limit
         * @description A suspended agent's keys answer 403 account.suspended, and so do those of every agent below it; reactivating it restores them. daily_limit (NGN, or null for its KYC level's) may not be above its parent's.
         */
        patch: operations["patchAgentsById"];
        trace?: never;
    };
    "/v1/agents/{id}/pin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set an agent's transaction PIN */
        put: operations["putAgentsByIdPin"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{id}/pricing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set an agent's price list (its own agent's, by its direct parent)
         * @description The operator's tier rule shapes: product → rate_bp off face value, the most specific rule deciding, no rule 0 bp. No rule may give a larger discount than the parent itself gets on a product it decides (a product the parent has no rate for is 0 bp for it): such a rule is 400 validation.failed naming rules.N.rate_bp. The whole list is replaced; [] removes every rule. At purchase the agent's rate is clamped to its parent's rate then, and each account above it earns the difference (docs/api.md "Agent pricing").
         */
        put: operations["putAgentsByIdPricing"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{id}/transfers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An agent's transfers with its parent in the key's environment, newest first
         * @description Transfers and the sweeps of a closing, of an agent anywhere below the key's account.
         */
        get: operations["getAgentsByIdTransfers"];
        put?: never;
        /**
         * Move money between the key's account and one of its own agents
         * @description direction to_agent debits the parent and credits the agent, from_agent the reverse; both take the parent's PIN. Both wallets change in one step, each with an entry (transfer_out, transfer_in) naming the other account, and wallet.debited / wallet.credited on both sides. reference is the parent's, unique for ever per environment: a repeat of the same transfer answers it again with Idempotent-Replayed: true; the reference with another transfer is 422 idempotency.key_reused. A test key moves only test money.
         */
        post: operations["postAgentsByIdTransfers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/pricing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The calling account's tier and its effective discount rate for every product
         * @description commission = floor(amount_kobo × rate_bp / 10000); the wallet is debited amount_charged = amount − commission (docs/api.md "Pricing").
         */
        get: operations["getPricing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/data/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Enabled data plans, optionally of one network and one plan type */
        get: operations["getServicesDataPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/electricity/discos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The nine distribution companies and their service IDs */
        get: operations["getServicesElectricityDiscos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/tv/packages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Cable TV packages, optionally of one provider */
        get: operations["getServicesTvPackages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/education/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Enabled education products (WAEC, JAMB PINs), optionally of one exam body */
        get: operations["getServicesEducationProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/internet/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Enabled internet plans (Smile, Spectranet), optionally of one provider */
        get: operations["getServicesInternetPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/showmax/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Enabled Showmax plans */
        get: operations["getServicesShowmaxPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/international/countries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Countries international airtime and data is sold for, with their currency and dialling prefix */
        get: operations["getServicesInternationalCountries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/international/operators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A country's product types and the operators of each */
        get: operations["getServicesInternationalOperators"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/international/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The products of an operator and product type, with their currency, rate and NGN price */
        get: operations["getServicesInternationalProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/airtime": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Buy airtime (NGN 50 to 50,000) */
        post: operations["postServicesAirtime"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/data/purchase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Buy a data bundle; amount must equal the plan price */
        post: operations["postServicesDataPurchase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/electricity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pay for electricity (NGN 500 or more, and at least the meter's minimum_amount); prepaid meters get a token */
        post: operations["postServicesElectricity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/tv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Renew or change a cable TV subscription; amount must equal the package price (change) or the renewal amount (renew), times quantity */
        post: operations["postServicesTv"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/education": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Buy WAEC or JAMB PINs; amount must equal the price × quantity; the PINs are in the answer */
        post: operations["postServicesEducation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/internet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Buy a Smile bundle for an account or a Spectranet PIN; amount must equal the plan price */
        post: operations["postServicesInternet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/showmax": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pay a Showmax plan to the account of a phone number; amount must equal the plan price */
        post: operations["postServicesShowmax"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/international": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Buy the product of a quote for a phone abroad; the wallet pays exactly the quoted charge */
        post: operations["postServicesInternational"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/electricity/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify a meter before paying: the customer name and address, and where the disco gives them its arrears, minimum_amount and can_vend */
        post: operations["postServicesElectricityVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/tv/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify a smartcard or IUC number: the customer name, current package (and its code), due date and renewal_amount */
        post: operations["postServicesTvVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/education/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify a JAMB profile ID before buying: the candidate's name */
        post: operations["postServicesEducationVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/internet/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify a Smile account (account number, phone or e-mail) before buying: the customer name */
        post: operations["postServicesInternetVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/international/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The NGN charge of an international product, held for 10 minutes: the purchase names the quote */
        post: operations["postServicesInternationalQuote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lookup/phone/{phone}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The network of a Nigerian mobile number: its prefix's, or the one a live delivery showed it ported to
         * @description phone: 11 digits starting with 0 (08031234567), or 234 / +234 and 10 digits. Airtime and data purchases check their network against this answer (docs/api.md "Phone lookup").
         */
        get: operations["getLookupPhoneByPhone"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Place 1 to 100 purchases under one PIN check: each item is an ordinary order
         * @description Answers 202 with the batch: each item's order reference and status, or its own error (validation.failed, wallet.insufficient_funds, wallet.limit_exceeded, transaction.duplicate_reference, …) when it was refused alone. A wrong PIN refuses the whole batch. X-Idempotency-Key covers the whole batch. Body up to 256 KiB (docs/api.md "Bulk orders").
         */
        post: operations["postServicesBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/bulk/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A bulk order and its items with their current statuses */
        get: operations["getServicesBulkById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/services/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether each product can be bought now: available, degraded or unavailable */
        get: operations["getServicesStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Service orders (airtime, data, electricity, tv, education, internet, showmax, international), newest first
         * @description A delivered order shows status "successful". With idempotency_key, the order that key created (kept 24 hours), so a client that lost a response finds its order. status, service_type, recipient, client_reference, from and to filter the list (all combinable, read from an index); a bad value is 400 validation.failed.
         */
        get: operations["getTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Service orders of a date range as CSV, newest first
         * @description One header row, then one row per order: the list's fields, amount_charged, commission, client_reference and metadata (empty until the order carries them). from and to are required and cover at most 31 days; the list's filters apply. Streamed in chunks.
         */
        get: operations["getTransactionsExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{reference}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The full record of one order
         * @description An unknown reference, or another account's or environment's, is 404 transaction.not_found.
         */
        get: operations["getTransactionsByReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{reference}/requery": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask a processing order's upstream for its status now
         * @description The same re-query the schedule makes, at once; the answer is the full record as it stands after. At most once per order per 30 seconds (429 rate_limit.exceeded with Retry-After the seconds left). A settled order, or one not yet sent, is answered as it is, with no upstream call and no limit. An unknown reference, or another account's or environment's, is 404 transaction.not_found.
         */
        post: operations["postTransactionsByReferenceRequery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{reference}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a bulk order's item not yet sent to an upstream
         * @description An item of a bulk order still waiting to be sent is failed and refunded at once, with failure_reason "cancelled" and the event transaction.failed; the answer is its full record. A cancelled order answers so again. An order already sent, settled, or not a bulk item is 409 transaction.not_cancellable. An unknown reference, or another account's or environment's, is 404 transaction.not_found.
         */
        post: operations["postTransactionsByReferenceCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Webhook endpoints of the key's environment (never their secrets) */
        get: operations["getWebhooks"];
        put?: never;
        /**
         * Register an HTTPS endpoint for some or all event kinds; its secret is in this response only
         * @description http:// URLs are refused, as are hosts resolving to loopback, private or link-local addresses (unless the operator allows them). At most 10 endpoints per environment. With include_agents: true the endpoint also receives the events of every agent below the account, each carrying account (docs/api.md "Agents' events"). A replay of a registration whose endpoint has since been deleted answers 404 webhooks.not_found instead of the secret.
         */
        post: operations["postWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an endpoint; its pending deliveries are cancelled */
        delete: operations["deleteWebhooksById"];
        options?: never;
        head?: never;
        /**
         * Change the event kinds an endpoint receives, its description and/or include_agents
         * @description Fields left out stay as they are; at least one is needed. Events already stored keep their deliveries.
         */
        patch: operations["patchWebhooksById"];
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deliveries of an endpoint with every attempt, newest first */
        get: operations["getWebhooksByIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{delivery_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a delivery: a new series of attempts starts now
         * @description Replaying a delivery that is still pending changes nothing. Replays are safe to repeat, so X-Idempotency-Key is not needed.
         */
        post: operations["postWebhooksByIdDeliveriesByDeliveryIdReplay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a webhook.test event to this endpoint now
         * @description Whatever kinds the endpoint subscribes to. Signed, retried and listed among the deliveries like any event; its data names the endpoint and environment. Each call sends a new event, so X-Idempotency-Key is not used.
         */
        post: operations["postWebhooksByIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/roll-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give an endpoint a new signing secret, shown in this response only; the old one still signs for 24 hours
         * @description For 24 hours (previous_secret_expires_at) every delivery carries both signatures: X-Service-Signature with the new secret and X-Service-Signature-Previous with the old one; webhook-signature lists both, separated by a space. A roll during that period replaces the new secret only: the old one stays until its own 24 hours end.
         */
        post: operations["postWebhooksByIdRollSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a failing delivery now instead of at its next scheduled retry
         * @description For a delivery waiting for a retry (pending after a failed attempt) the next attempt happens now, in the same series; a dead delivery starts a new series, as a replay. A delivery already due, being attempted or delivered is answered as it is, so a repeated request sends nothing more. A cancelled delivery (its endpoint was disabled) is 409 webhooks.delivery_not_retryable.
         */
        post: operations["postWebhooksByIdDeliveriesByDeliveryIdRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every event of the key's environment for 30 days, in the order they happened
         * @description Each event is the webhook payload with the same id, whether or not an endpoint subscribed. Pass the last id seen as after to catch up; an after that names no event of this environment in the last 30 days is 400 validation.failed (start again without after). With type, next_after is where the next call starts even when this page holds no event.
         */
        get: operations["getEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/statements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A daily statement of the key's wallet: one Africa/Lagos day, signed
         * @description Opening and closing balance, every wallet entry of the day (credits, debits, reversals: the refunds; each debit with the commission it netted) and totals by entry type and by service. Today's is provisional (final false). JSON by default, CSV or PDF with format; every body is signed: Billvend-Signature: ed25519=<base64> over its exact bytes, verified with GET /v1/statements/public-key. date is required, not in the future, not before the account's first day; a day of more than 100000 entries (PDF 20000) is 422 statement.too_large; at most 4 statements are built at once in the server (429 rate_limit.exceeded past it).
         */
        get: operations["getStatements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/statements/public-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public key that verifies statements (Ed25519, SPKI PEM)
         * @description No key needed: an accountant fetches it once and verifies statements offline (docs: "Statements").
         */
        get: operations["getStatementsPublicKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{reference}/receipt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A printable receipt of one order: the customer's copy (HTML, or PDF)
         * @description text/html by default; application/pdf with Accept: application/pdf or format=pdf. The reseller's (account's) name, the reference, date, service, recipient, customer, face value and, once delivered, the token, units and PINs (this key may see them, as on the full record). Never what the reseller paid. An unknown reference, or another account's or environment's, is 404 transaction.not_found.
         */
        get: operations["getTransactionsByReferenceReceipt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{reference}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a settled order's final event again to the endpoints
         * @description 202: transaction.completed, transaction.failed or (a delivered order its upstream reversed) transaction.reversed again, with a new event id and resent: true, the data as the first time, to every enabled endpoint of the environment that subscribes to it, and in GET /v1/events. 409 webhooks.no_endpoint when none subscribes; 409 transaction.not_final for a pending or processing order (its event comes when it settles); once per order every 60 s, else 429 rate_limit.exceeded with Retry-After.
         */
        post: operations["postTransactionsByReferenceResend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/wallet/fund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Top up the sandbox wallet (test keys only)
         * @description Adds test money to the test wallet, up to NGN 10,000,000 per call, and emits wallet.credited. A live key gets 403 auth.insufficient_scope.
         */
        post: operations["postSandboxWalletFund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/funding/bank-transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Bank partner: a transfer into a reseller's funding account (credits the live wallet)
         * @description Signed with X-Signature: sha256=<hex HMAC-SHA256 of the raw body keyed with FUNDING_WEBHOOK_SECRET>. Idempotent by the bank's reference: a repeat credits nothing and answers 200 with the first credit.
         */
        post: operations["postFundingBankTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/funding/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The reseller's dedicated bank accounts */
        get: operations["getFundingAccounts"];
        put?: never;
        /**
         * Create the reseller's dedicated bank accounts (live wallet)
         * @description One account (or one per bank) at each configured funding provider; a transfer into it credits the live wallet once, verified with the provider. A repeat makes only what is missing (a failed provider is tried again). bvn and nin are sealed at rest and never shown again. A test key gets 403: the test wallet is funded by POST /v1/sandbox/funding/transfer.
         */
        post: operations["postFundingAccounts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/funding/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Simulate a bank transfer into the test wallet (test keys only)
         * @description Goes the way a real transfer does: a signed callback from the sandbox funding provider, checked, verified with it, credited once, wallet.credited emitted. A live key gets 403 auth.insufficient_scope.
         */
        post: operations["postSandboxFundingTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI document */
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "transaction.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The transaction.completed event
         * @description POSTed to every enabled endpoint subscribed to this kind. Verify X-Service-Signature (sha256= + hex HMAC-SHA256 of the raw body keyed with the endpoint secret) or webhook-signature (Standard Webhooks); deduplicate on webhook-id. Answer 2xx within 10 s; other answers are retried 30 s, 5 min, 30 min, 2 h and 8 h later; 410 disables the endpoint.
         */
        post: operations["eventTransactionCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "transaction.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The transaction.failed event
         * @description POSTed to every enabled endpoint subscribed to this kind. Verify X-Service-Signature (sha256= + hex HMAC-SHA256 of the raw body keyed with the endpoint secret) or webhook-signature (Standard Webhooks); deduplicate on webhook-id. Answer 2xx within 10 s; other answers are retried 30 s, 5 min, 30 min, 2 h and 8 h later; 410 disables the endpoint.
         */
        post: operations["eventTransactionFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "transaction.processing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The transaction.processing event
         * @description POSTed to every enabled endpoint subscribed to this kind. Verify X-Service-Signature (sha256= + hex HMAC-SHA256 of the raw body keyed with the endpoint secret) or webhook-signature (Standard Webhooks); deduplicate on webhook-id. Answer 2xx within 10 s; other answers are retried 30 s, 5 min, 30 min, 2 h and 8 h later; 410 disables the endpoint.
         */
        post: operations["eventTransactionProcessing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "transaction.delayed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The transaction.delayed event
         * @description POSTed to every enabled endpoint subscribed to this kind. Verify X-Service-Signature (sha256= + hex HMAC-SHA256 of the raw body keyed with the endpoint secret) or webhook-signature (Standard Webhooks); deduplicate on webhook-id. Answer 2xx within 10 s; other answers are retried 30 s, 5 min, 30 min, 2 h and 8 h later; 410 disables the endpoint.
         */
        post: operations["eventTransactionDelayed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "transaction.reversed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The transaction.reversed event
         * @description POSTed to every enabled endpoint subscribed to this kind. Verify X-Service-Signature (sha256= + hex HMAC-SHA256 of the raw body keyed with the endpoint secret) or webhook-signature (Standard Webhooks); deduplicate on webhook-id. Answer 2xx within 10 s; other answers are retried 30 s, 5 min, 30 min, 2 h and 8 h later; 410 disables the endpoint.
         */
        post: operations["eventTransactionReversed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "wallet.credited": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The wallet.credited event
         * @description POSTed to every enabled endpoint subscribed to this kind. Verify X-Service-Signature (sha256= + hex HMAC-SHA256 of the raw body keyed with the endpoint secret) or webhook-signature (Standard Webhooks); deduplicate on webhook-id. Answer 2xx within 10 s; other answers are retried 30 s, 5 min, 30 min, 2 h and 8 h later; 410 disables the endpoint.
         */
        post: operations["eventWalletCredited"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "wallet.debited": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The wallet.debited event
         * @description POSTed to every enabled endpoint subscribed to this kind. Verify X-Service-Signature (sha256= + hex HMAC-SHA256 of the raw body keyed with the endpoint secret) or webhook-signature (Standard Webhooks); deduplicate on webhook-id. Answer 2xx within 10 s; other answers are retried 30 s, 5 min, 30 min, 2 h and 8 h later; 410 disables the endpoint.
         */
        post: operations["eventWalletDebited"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "wallet.reversed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The wallet.reversed event
         * @description POSTed to every enabled endpoint subscribed to this kind. Verify X-Service-Signature (sha256= + hex HMAC-SHA256 of the raw body keyed with the endpoint secret) or webhook-signature (Standard Webhooks); deduplicate on webhook-id. Answer 2xx within 10 s; other answers are retried 30 s, 5 min, 30 min, 2 h and 8 h later; 410 disables the endpoint.
         */
        post: operations["eventWalletReversed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "wallet.low_balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The wallet.low_balance event
         * @description POSTed to every enabled endpoint subscribed to this kind. Verify X-Service-Signature (sha256= + hex HMAC-SHA256 of the raw body keyed with the endpoint secret) or webhook-signature (Standard Webhooks); deduplicate on webhook-id. Answer 2xx within 10 s; other answers are retried 30 s, 5 min, 30 min, 2 h and 8 h later; 410 disables the endpoint.
         */
        post: operations["eventWalletLow_balance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "service.status_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The service.status_changed event
         * @description POSTed to every enabled endpoint subscribed to this kind. Verify X-Service-Signature (sha256= + hex HMAC-SHA256 of the raw body keyed with the endpoint secret) or webhook-signature (Standard Webhooks); deduplicate on webhook-id. Answer 2xx within 10 s; other answers are retried 30 s, 5 min, 30 min, 2 h and 8 h later; 410 disables the endpoint.
         */
        post: operations["eventServiceStatus_changed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "batch.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The batch.completed event
         * @description POSTed to every enabled endpoint subscribed to this kind. Verify X-Service-Signature (sha256= + hex HMAC-SHA256 of the raw body keyed with the endpoint secret) or webhook-signature (Standard Webhooks); deduplicate on webhook-id. Answer 2xx within 10 s; other answers are retried 30 s, 5 min, 30 min, 2 h and 8 h later; 410 disables the endpoint.
         */
        post: operations["eventBatchCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Error: {
            /** @constant */
            success: false;
            error: {
                code: components["schemas"]["ErrorCodes"];
                /** @description human text; may change */
                message: string;
                details?: {
                    field: string;
                    message: string;
                }[];
                /** @description transaction.failed: the refunded order */
                reference?: string;
            };
            request_id: string;
        };
        /** @enum {string} */
        ErrorCodes: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired" | "auth.ip_not_allowed" | "wallet.insufficient_funds" | "wallet.not_found" | "wallet.limit_exceeded" | "transaction.failed" | "transaction.not_found" | "transaction.provider_unavailable" | "service.plan_not_found" | "service.invalid_meter" | "service.invalid_smartcard" | "service.amount_mismatch" | "service.invalid_profile" | "service.invalid_account" | "pin.incorrect" | "pin.locked" | "pin.not_set" | "keys.limit_reached" | "keys.not_found" | "rate_limit.exceeded" | "validation.failed" | "request.malformed_json" | "request.too_large" | "request.unsupported_media_type" | "route.not_found" | "route.method_not_allowed" | "auth.insufficient_scope" | "idempotency.key_reused" | "internal.error" | "service.unavailable" | "service.amount_below_minimum" | "service.meter_cannot_vend" | "service.renewal_unavailable" | "account.not_found" | "account.email_taken" | "operator.unauthorized" | "webhooks.not_found" | "webhooks.delivery_not_found" | "webhooks.limit_reached" | "webhooks.delivery_not_retryable" | "funding.invalid_signature" | "session.required" | "session.invalid_credentials" | "session.locked" | "transaction.duplicate_reference" | "session.csrf_failed" | "batch.not_found" | "statement.too_large" | "webhooks.no_endpoint" | "transaction.not_final" | "service.network_mismatch" | "transaction.not_cancellable" | "service.quote_not_found" | "service.quote_expired" | "service.product_not_found" | "funding.not_configured" | "funding.exception_not_found" | "funding.exception_resolved" | "account.suspended" | "agents.depth_limit_reached" | "agents.closed" | "agents.not_closable" | "agents.not_direct_agent";
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAccount: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: number;
                            name: string;
                            email: string;
                            /** @description international format, e.g. +2348012345678 */
                            phone: string;
                            tier: string;
                            /** @description governs the daily wallet limit */
                            kyc_level: number;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            /** @description the wallet.low_balance alert of the key's environment: NGN, or null when off */
                            low_balance_threshold: number | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    patchAccount: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "low_balance_threshold": 5000
                 *     }
                 */
                "application/json": {
                    low_balance_threshold: number | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            id: number;
                            name: string;
                            email: string;
                            /** @description international format, e.g. +2348012345678 */
                            phone: string;
                            tier: string;
                            /** @description governs the daily wallet limit */
                            kyc_level: number;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            /** @description the wallet.low_balance alert of the key's environment: NGN, or null when off */
                            low_balance_threshold: number | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.insufficient_scope, auth.ip_not_allowed, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.insufficient_scope" | "auth.ip_not_allowed" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    getWallet: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description NGN amount with at most 2 decimal places */
                            balance: number;
                            /** @description NGN amount with at most 2 decimal places */
                            bonus_balance: number;
                            /** @constant */
                            currency: "NGN";
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getWalletTransactions: {
        parameters: {
            query?: {
                /** @description items per page (default 20, max 100) */
                per_page?: number;
                /** @description page number (default 1, max 1,000,000; past the last page the list is empty) */
                page?: number;
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            transactions: {
                                /** @description sequence number within the wallet */
                                id: number;
                                /** @enum {unknown} */
                                type: "credit" | "debit" | "reversal" | "transfer_in" | "transfer_out" | "commission" | "commission_reversal";
                                /** @description NGN amount with at most 2 decimal places */
                                amount: number;
                                /** @description NGN amount with at most 2 decimal places */
                                balance_before: number;
                                /** @description NGN amount with at most 2 decimal places */
                                balance_after: number;
                                /** @description the order reference, or the funding reference for a credit */
                                reference: string;
                                description: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                created_at: string;
                                /** @description transfer_in/transfer_out: the other account of the transfer; commission/commission_reversal: the agent whose order it was (docs/api.md "Agents") */
                                counterparty_id?: number;
                            }[];
                            pagination: {
                                total: number;
                                per_page: number;
                                current_page: number;
                                last_page: number;
                            };
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getKeys: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            keys: {
                                id: number;
                                name: string;
                                /**
                                 * @description live (real money) or test (sandbox)
                                 * @enum {unknown}
                                 */
                                environment: "live" | "test";
                                /** @description prefix and last 4 characters, e.g. bv_test_…a1B2; never the secret */
                                key_hint: string;
                                scopes: ("*" | "wallet:read" | "services:purchase" | "transactions:read" | "keys:manage" | "account:manage" | "agents:manage")[];
                                ip_allowlist: string[];
                                rate_limit_per_minute: number;
                                expires_at: string | null;
                                last_used_at: string | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                created_at: string;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    postKeys: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Shop till 2",
                 *       "environment": "test",
                 *       "scopes": [
                 *         "services:purchase",
                 *         "transactions:read"
                 *       ],
                 *       "ip_allowlist": []
                 *     }
                 */
                "application/json": {
                    name: string;
                    /**
                     * @description live (real money) or test (sandbox)
                     * @enum {unknown}
                     */
                    environment?: "live" | "test";
                    scopes?: ("*" | "wallet:read" | "services:purchase" | "transactions:read" | "keys:manage" | "account:manage" | "agents:manage")[];
                    ip_allowlist?: string[];
                    /** Format: date-time */
                    expires_at?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            id: number;
                            name: string;
                            /** @description the full secret; shown only in this response */
                            api_key: string;
                            /**
                             * @description live (real money) or test (sandbox)
                             * @enum {unknown}
                             */
                            environment: "live" | "test";
                            scopes: ("*" | "wallet:read" | "services:purchase" | "transactions:read" | "keys:manage" | "account:manage" | "agents:manage")[];
                            ip_allowlist: string[];
                            rate_limit_per_minute: number;
                            expires_at: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.insufficient_scope, auth.ip_not_allowed, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.insufficient_scope" | "auth.ip_not_allowed" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: keys.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "keys.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: keys.limit_reached, idempotency.key_reused */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "keys.limit_reached" | "idempotency.key_reused";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    deleteKeysById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: null;
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.insufficient_scope, auth.ip_not_allowed, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.insufficient_scope" | "auth.ip_not_allowed" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: keys.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "keys.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    getAgents: {
        parameters: {
            query?: {
                /** @description items per page (default 20, max 100) */
                per_page?: number;
                /** @description page number (default 1, max 1,000,000; past the last page the list is empty) */
                page?: number;
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            agents: {
                                /** @description the agent's account id */
                                id: number;
                                /** @description the account that manages it */
                                parent_id: number;
                                name: string;
                                email: string;
                                phone: string;
                                /** @description its parent's tier when opened */
                                tier: string;
                                kyc_level: number;
                                /** @enum {unknown} */
                                status: "active" | "suspended" | "closed";
                                /** @description NGN amount with at most 2 decimal places */
                                daily_limit: number;
                                pin_set: boolean;
                                /** @description its own agents not closed */
                                agents_open: number;
                                balances: {
                                    live: {
                                        /** @description NGN amount with at most 2 decimal places */
                                        balance: number;
                                        /** @description NGN amount with at most 2 decimal places */
                                        bonus_balance: number;
                                        /** @constant */
                                        currency: "NGN";
                                    };
                                    test: {
                                        /** @description NGN amount with at most 2 decimal places */
                                        balance: number;
                                        /** @description NGN amount with at most 2 decimal places */
                                        bonus_balance: number;
                                        /** @constant */
                                        currency: "NGN";
                                    };
                                };
                                pricing: {
                                    /** @description its price list, set by its parent (PUT /v1/agents/{id}/pricing); a product without a rule is 0 bp */
                                    rules: {
                                        /** @enum {unknown} */
                                        service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                                        network: string | null;
                                        disco: string | null;
                                        provider: string | null;
                                        rate_bp: number;
                                    }[];
                                };
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                created_at: string;
                            }[];
                            pagination: {
                                total: number;
                                per_page: number;
                                current_page: number;
                                last_page: number;
                            };
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    postAgents: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Ikeja Till 4",
                 *       "email": "till4@shop.example.ng",
                 *       "phone": "08031234567",
                 *       "password": "correct horse battery",
                 *       "kyc_level": 1
                 *     }
                 */
                "application/json": {
                    name: string;
                    email: string;
                    phone: string;
                    password: string;
                    kyc_level: number;
                    daily_limit?: number;
                    pin?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            /** @description the agent's account id */
                            id: number;
                            /** @description the account that manages it */
                            parent_id: number;
                            name: string;
                            email: string;
                            phone: string;
                            /** @description its parent's tier when opened */
                            tier: string;
                            kyc_level: number;
                            /** @enum {unknown} */
                            status: "active" | "suspended" | "closed";
                            /** @description NGN amount with at most 2 decimal places */
                            daily_limit: number;
                            pin_set: boolean;
                            /** @description its own agents not closed */
                            agents_open: number;
                            balances: {
                                live: {
                                    /** @description NGN amount with at most 2 decimal places */
                                    balance: number;
                                    /** @description NGN amount with at most 2 decimal places */
                                    bonus_balance: number;
                                    /** @constant */
                                    currency: "NGN";
                                };
                                test: {
                                    /** @description NGN amount with at most 2 decimal places */
                                    balance: number;
                                    /** @description NGN amount with at most 2 decimal places */
                                    bonus_balance: number;
                                    /** @constant */
                                    currency: "NGN";
                                };
                            };
                            pricing: {
                                /** @description its price list, set by its parent (PUT /v1/agents/{id}/pricing); a product without a rule is 0 bp */
                                rules: {
                                    /** @enum {unknown} */
                                    service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                                    network: string | null;
                                    disco: string | null;
                                    provider: string | null;
                                    rate_bp: number;
                                }[];
                            };
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.insufficient_scope, auth.ip_not_allowed, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.insufficient_scope" | "auth.ip_not_allowed" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: account.email_taken, agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.email_taken" | "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: agents.depth_limit_reached, idempotency.key_reused */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.depth_limit_reached" | "idempotency.key_reused";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    getAgentsCommissions: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description live (real money) or test (sandbox)
                             * @enum {unknown}
                             */
                            environment: "live" | "test";
                            from: string;
                            to: string;
                            rows: {
                                /** @description Africa/Lagos day of the entries, YYYY-MM-DD */
                                day: string;
                                /** @description the agent whose order earned it (any level below the caller) */
                                agent_id: number;
                                service_type: string;
                                /** @description the network, disco or provider, when the order names one */
                                product: string | null;
                                /** @description commission entries (orders that earned) */
                                orders: number;
                                /** @description NGN amount with at most 2 decimal places */
                                earned: number;
                                /** @description NGN amount with at most 2 decimal places */
                                reversed: number;
                                /** @description NGN amount with at most 2 decimal places */
                                net: number;
                            }[];
                            totals: {
                                /** @description NGN amount with at most 2 decimal places */
                                earned: number;
                                /** @description NGN amount with at most 2 decimal places */
                                reversed: number;
                                /** @description NGN amount with at most 2 decimal places */
                                net: number;
                            };
                            /** @description false when more than 100000 wallet entries lay in the range (commission_report_entries_max): the rows sum the first ones */
                            complete: boolean;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.insufficient_scope, auth.ip_not_allowed, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.insufficient_scope" | "auth.ip_not_allowed" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getAgentsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description the agent's account id */
                            id: number;
                            /** @description the account that manages it */
                            parent_id: number;
                            name: string;
                            email: string;
                            phone: string;
                            /** @description its parent's tier when opened */
                            tier: string;
                            kyc_level: number;
                            /** @enum {unknown} */
                            status: "active" | "suspended" | "closed";
                            /** @description NGN amount with at most 2 decimal places */
                            daily_limit: number;
                            pin_set: boolean;
                            /** @description its own agents not closed */
                            agents_open: number;
                            balances: {
                                live: {
                                    /** @description NGN amount with at most 2 decimal places */
                                    balance: number;
                                    /** @description NGN amount with at most 2 decimal places */
                                    bonus_balance: number;
                                    /** @constant */
                                    currency: "NGN";
                                };
                                test: {
                                    /** @description NGN amount with at most 2 decimal places */
                                    balance: number;
                                    /** @description NGN amount with at most 2 decimal places */
                                    bonus_balance: number;
                                    /** @constant */
                                    currency: "NGN";
                                };
                            };
                            pricing: {
                                /** @description its price list, set by its parent (PUT /v1/agents/{id}/pricing); a product without a rule is 0 bp */
                                rules: {
                                    /** @enum {unknown} */
                                    service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                                    network: string | null;
                                    disco: string | null;
                                    provider: string | null;
                                    rate_bp: number;
                                }[];
                            };
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    deleteAgentsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            agent: {
                                /** @description the agent's account id */
                                id: number;
                                /** @description the account that manages it */
                                parent_id: number;
                                name: string;
                                email: string;
                                phone: string;
                                /** @description its parent's tier when opened */
                                tier: string;
                                kyc_level: number;
                                /** @enum {unknown} */
                                status: "active" | "suspended" | "closed";
                                /** @description NGN amount with at most 2 decimal places */
                                daily_limit: number;
                                pin_set: boolean;
                                /** @description its own agents not closed */
                                agents_open: number;
                                balances: {
                                    live: {
                                        /** @description NGN amount with at most 2 decimal places */
                                        balance: number;
                                        /** @description NGN amount with at most 2 decimal places */
                                        bonus_balance: number;
                                        /** @constant */
                                        currency: "NGN";
                                    };
                                    test: {
                                        /** @description NGN amount with at most 2 decimal places */
                                        balance: number;
                                        /** @description NGN amount with at most 2 decimal places */
                                        bonus_balance: number;
                                        /** @constant */
                                        currency: "NGN";
                                    };
                                };
                                pricing: {
                                    /** @description its price list, set by its parent (PUT /v1/agents/{id}/pricing); a product without a rule is 0 bp */
                                    rules: {
                                        /** @enum {unknown} */
                                        service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                                        network: string | null;
                                        disco: string | null;
                                        provider: string | null;
                                        rate_bp: number;
                                    }[];
                                };
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                created_at: string;
                            };
                            swept: {
                                reference: string;
                                /**
                                 * @description sweep: the agent's balance moved back when it was closed
                                 * @enum {unknown}
                                 */
                                kind: "transfer" | "sweep";
                                /** @enum {unknown} */
                                direction: "to_agent" | "from_agent";
                                /**
                                 * @description live (real money) or test (sandbox)
                                 * @enum {unknown}
                                 */
                                environment: "live" | "test";
                                /** @description NGN amount with at most 2 decimal places */
                                amount: number;
                                parent_id: number;
                                agent_id: number;
                                balances_after: {
                                    /** @description NGN amount with at most 2 decimal places */
                                    parent: number;
                                    /** @description NGN amount with at most 2 decimal places */
                                    agent: number;
                                };
                                /** @description the id of each side's wallet entry (GET /v1/wallet/transactions) */
                                wallet_transactions: {
                                    parent: number;
                                    agent: number;
                                };
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                created_at: string;
                            }[];
                            keys_revoked: number;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed, agents.not_closable */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed" | "agents.not_closable";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    patchAgentsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "suspended",
                 *       "daily_limit": 20000
                 *     }
                 */
                "application/json": {
                    /** @enum {unknown} */
                    status?: "active" | "suspended";
                    daily_limit?: number | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            /** @description the agent's account id */
                            id: number;
                            /** @description the account that manages it */
                            parent_id: number;
                            name: string;
                            email: string;
                            phone: string;
                            /** @description its parent's tier when opened */
                            tier: string;
                            kyc_level: number;
                            /** @enum {unknown} */
                            status: "active" | "suspended" | "closed";
                            /** @description NGN amount with at most 2 decimal places */
                            daily_limit: number;
                            pin_set: boolean;
                            /** @description its own agents not closed */
                            agents_open: number;
                            balances: {
                                live: {
                                    /** @description NGN amount with at most 2 decimal places */
                                    balance: number;
                                    /** @description NGN amount with at most 2 decimal places */
                                    bonus_balance: number;
                                    /** @constant */
                                    currency: "NGN";
                                };
                                test: {
                                    /** @description NGN amount with at most 2 decimal places */
                                    balance: number;
                                    /** @description NGN amount with at most 2 decimal places */
                                    bonus_balance: number;
                                    /** @constant */
                                    currency: "NGN";
                                };
                            };
                            pricing: {
                                /** @description its price list, set by its parent (PUT /v1/agents/{id}/pricing); a product without a rule is 0 bp */
                                rules: {
                                    /** @enum {unknown} */
                                    service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                                    network: string | null;
                                    disco: string | null;
                                    provider: string | null;
                                    rate_bp: number;
                                }[];
                            };
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    putAgentsByIdPin: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "pin": "24680"
                 *     }
                 */
                "application/json": {
                    pin: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            pin_set: boolean;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    putAgentsByIdPricing: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "rules": [
                 *         {
                 *           "service_type": "airtime",
                 *           "rate_bp": 200
                 *         },
                 *         {
                 *           "service_type": "airtime",
                 *           "network": "mtn",
                 *           "rate_bp": 400
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    rules: {
                        /** @description airtime, data, electricity, tv, education, internet, showmax or international */
                        service_type: string;
                        network?: string | null;
                        disco?: string | null;
                        provider?: string | null;
                        /** @description discount in basis points: 100 bp = 1%; at most 9999 (an order always costs at least 1 kobo) */
                        rate_bp: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            agent_id: number;
                            rules: {
                                /** @enum {unknown} */
                                service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                                network: string | null;
                                disco: string | null;
                                provider: string | null;
                                rate_bp: number;
                            }[];
                            /** @description how a discount is computed */
                            rounding: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: agents.not_direct_agent */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.not_direct_agent";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    getAgentsByIdTransfers: {
        parameters: {
            query?: {
                /** @description items per page (default 20, max 100) */
                per_page?: number;
                /** @description page number (default 1, max 1,000,000; past the last page the list is empty) */
                page?: number;
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            transfers: {
                                reference: string;
                                /**
                                 * @description sweep: the agent's balance moved back when it was closed
                                 * @enum {unknown}
                                 */
                                kind: "transfer" | "sweep";
                                /** @enum {unknown} */
                                direction: "to_agent" | "from_agent";
                                /**
                                 * @description live (real money) or test (sandbox)
                                 * @enum {unknown}
                                 */
                                environment: "live" | "test";
                                /** @description NGN amount with at most 2 decimal places */
                                amount: number;
                                parent_id: number;
                                agent_id: number;
                                balances_after: {
                                    /** @description NGN amount with at most 2 decimal places */
                                    parent: number;
                                    /** @description NGN amount with at most 2 decimal places */
                                    agent: number;
                                };
                                /** @description the id of each side's wallet entry (GET /v1/wallet/transactions) */
                                wallet_transactions: {
                                    parent: number;
                                    agent: number;
                                };
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                created_at: string;
                            }[];
                            pagination: {
                                total: number;
                                per_page: number;
                                current_page: number;
                                last_page: number;
                            };
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    postAgentsByIdTransfers: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "direction": "to_agent",
                 *       "amount": 2500,
                 *       "environment": "test",
                 *       "pin": "12345",
                 *       "reference": "float-2026-11-28-till4"
                 *     }
                 */
                "application/json": {
                    /** @enum {unknown} */
                    direction: "to_agent" | "from_agent";
                    amount: number;
                    /**
                     * @description live (real money) or test (sandbox)
                     * @enum {unknown}
                     */
                    environment: "live" | "test";
                    pin: string;
                    reference: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            reference: string;
                            /**
                             * @description sweep: the agent's balance moved back when it was closed
                             * @enum {unknown}
                             */
                            kind: "transfer" | "sweep";
                            /** @enum {unknown} */
                            direction: "to_agent" | "from_agent";
                            /**
                             * @description live (real money) or test (sandbox)
                             * @enum {unknown}
                             */
                            environment: "live" | "test";
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            parent_id: number;
                            agent_id: number;
                            balances_after: {
                                /** @description NGN amount with at most 2 decimal places */
                                parent: number;
                                /** @description NGN amount with at most 2 decimal places */
                                agent: number;
                            };
                            /** @description the id of each side's wallet entry (GET /v1/wallet/transactions) */
                            wallet_transactions: {
                                parent: number;
                                agent: number;
                            };
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: pin.incorrect, pin.not_set, auth.insufficient_scope, auth.ip_not_allowed, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.incorrect" | "pin.not_set" | "auth.insufficient_scope" | "auth.ip_not_allowed" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: agents.not_direct_agent, wallet.insufficient_funds, idempotency.key_reused */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.not_direct_agent" | "wallet.insufficient_funds" | "idempotency.key_reused";
                        };
                    };
                };
            };
            /** @description Too many requests: pin.locked, rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.locked" | "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    getPricing: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description the calling account's tier */
                            tier: string;
                            /** @description how commission is computed */
                            rounding: string;
                            /** @description every product's effective rate: the most specific rule of the tier, else 0 */
                            rates: {
                                /** @enum {unknown} */
                                service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                                network: string | null;
                                disco: string | null;
                                provider: string | null;
                                rate_bp: number;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getServicesDataPlans: {
        parameters: {
            query?: {
                /** @description mtn, airtel, glo or 9mobile */
                network?: "mtn" | "airtel" | "glo" | "9mobile";
                /** @description sme, gifting, corporate or direct (docs/api.md "Data plan types") */
                plan_type?: "sme" | "gifting" | "corporate" | "direct";
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            plans: {
                                /** @description the plan's code: a purchase takes it as plan_code or plan_id */
                                plan_id: string;
                                /** @description the same value as plan_id, under the name the purchase uses */
                                plan_code: string;
                                name: string;
                                /** @enum {unknown} */
                                network: "mtn" | "airtel" | "glo" | "9mobile";
                                /**
                                 * @description how the network provisions the bundle: sme, gifting, corporate or direct (docs/api.md "Data plan types")
                                 * @enum {unknown}
                                 */
                                plan_type: "sme" | "gifting" | "corporate" | "direct";
                                /** @description NGN amount with at most 2 decimal places */
                                amount: number;
                                /** @description what the calling account's wallet pays for it: amount less its tier's commission (docs/api.md "Pricing") */
                                amount_charged: number;
                                validity: string;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getServicesElectricityDiscos: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            discos: {
                                /** @description e.g. IKEDC */
                                code: string;
                                /** @description the value of the disco field, e.g. ikeja-electric */
                                service_id: string;
                                name: string;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getServicesTvPackages: {
        parameters: {
            query?: {
                /** @description dstv, gotv or startimes */
                provider?: "dstv" | "gotv" | "startimes";
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            packages: {
                                package_code: string;
                                name: string;
                                /** @enum {unknown} */
                                provider: "dstv" | "gotv" | "startimes";
                                /** @description NGN amount with at most 2 decimal places */
                                amount: number;
                                /** @description what the calling account's wallet pays for it: amount less its tier's commission (docs/api.md "Pricing") */
                                amount_charged: number;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getServicesEducationProducts: {
        parameters: {
            query?: {
                /** @description waec or jamb */
                exam?: "waec" | "jamb";
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            products: {
                                /** @description the value of product on purchase */
                                product_code: string;
                                name: string;
                                /** @enum {unknown} */
                                exam: "waec" | "jamb";
                                /** @description NGN amount with at most 2 decimal places */
                                amount: number;
                                /** @description what the calling account's wallet pays per PIN: amount less its tier's commission (docs/api.md "Pricing") */
                                amount_charged: number;
                                quantity_max: number;
                                /** @description a JAMB product: profile_id is required and verified */
                                requires_profile: boolean;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getServicesInternetPlans: {
        parameters: {
            query?: {
                /** @description smile or spectranet */
                provider?: "smile" | "spectranet";
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            plans: {
                                /** @description the plan's code: a purchase takes it as plan_code or plan_id */
                                plan_id: string;
                                /** @description the same value as plan_id, under the name the purchase uses */
                                plan_code: string;
                                name: string;
                                /** @enum {unknown} */
                                provider: "smile" | "spectranet";
                                /** @description NGN amount with at most 2 decimal places */
                                amount: number;
                                /** @description what the calling account's wallet pays for it: amount less its tier's commission (docs/api.md "Pricing") */
                                amount_charged: number;
                                validity: string;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getServicesShowmaxPlans: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            plans: {
                                /** @description the plan's code: a purchase takes it as plan_code */
                                plan_code: string;
                                name: string;
                                /** @description NGN amount with at most 2 decimal places */
                                amount: number;
                                /** @description what the calling account's wallet pays for it: amount less its tier's commission (docs/api.md "Pricing") */
                                amount_charged: number;
                                validity: string;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getServicesInternationalCountries: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            countries: {
                                code: string;
                                name: string;
                                currency: string;
                                prefix: string;
                                flag: string | null;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable";
                        };
                    };
                };
            };
        };
    };
    getServicesInternationalOperators: {
        parameters: {
            query: {
                /** @description the country code */
                country: string;
                /** @description only this product type's operators */
                product_type?: string;
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            country: string;
                            currency: string;
                            product_types: {
                                product_type_id: string;
                                name: string;
                            }[];
                            operators: {
                                operator_id: string;
                                name: string;
                                image: string | null;
                                product_type_id: string;
                                product_type: string;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Unprocessable: service.product_not_found */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.product_not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable";
                        };
                    };
                };
            };
        };
    };
    getServicesInternationalProducts: {
        parameters: {
            query: {
                /** @description the country code */
                country: string;
                /** @description the operator_id */
                operator: string;
                /** @description the product_type_id */
                product_type: string;
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            country: string;
                            currency: string;
                            operator_id: string;
                            operator: string;
                            product_type_id: string;
                            products: {
                                /** @description a quote takes it as product_code */
                                product_code: string;
                                name: string;
                                /** @description true: one price; false: any foreign_amount from foreign_amount_min to foreign_amount_max */
                                fixed_price: boolean;
                                currency: string;
                                /** @description a fixed product's value in currency, when the provider states it */
                                foreign_amount: string | null;
                                foreign_amount_min: string | null;
                                foreign_amount_max: string | null;
                                /** @description NGN per one unit of currency, as decimal text; null when the provider gives none */
                                rate: string | null;
                                /** @description a fixed product's NGN price; null for a flexible one (rate × foreign_amount, see the quote) */
                                amount: number | null;
                                /** @description what the calling account's wallet would pay for a fixed product (docs/api.md "Pricing") */
                                amount_charged: number | null;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Unprocessable: service.product_not_found */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.product_not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable";
                        };
                    };
                };
            };
        };
    };
    postServicesAirtime: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "network": "mtn",
                 *       "phone": "08011111111",
                 *       "amount": 100,
                 *       "pin": "12345"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description mtn, airtel, glo or 9mobile; optional: without it the network is detected from the number (GET /v1/lookup/phone/{phone}); a network the number is not on is 422 service.network_mismatch unless ported is true
                     * @enum {unknown}
                     */
                    network?: "mtn" | "airtel" | "glo" | "9mobile";
                    /** @description true when the number was ported to the network given: the network is then not checked against the number's prefix */
                    ported?: boolean;
                    phone: string;
                    /** @description NGN, at most 2 decimals */
                    amount: number;
                    pin: string;
                    /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                    client_reference?: string;
                    /** @description your own notes: stored on the order and echoed back */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            reference: string;
                            /** @enum {unknown} */
                            status: "pending" | "processing" | "delivered" | "failed";
                            /** @enum {unknown} */
                            network: "mtn" | "airtel" | "glo" | "9mobile";
                            phone: string;
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN debited from the wallet: amount − commission */
                            amount_charged: number;
                            /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                            commission: number;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_after: number;
                            client_reference: string | null;
                            metadata: {
                                [key: string]: string;
                            } | null;
                            /** @description when the order is expected to be final (never earlier than its next re-query); null once it is settled */
                            expected_final_at: string | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: pin.incorrect, pin.not_set, auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.incorrect" | "pin.not_set" | "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: transaction.duplicate_reference, agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.duplicate_reference" | "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: wallet.insufficient_funds, wallet.limit_exceeded, transaction.failed, idempotency.key_reused, service.network_mismatch */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "wallet.insufficient_funds" | "wallet.limit_exceeded" | "transaction.failed" | "idempotency.key_reused" | "service.network_mismatch";
                        };
                    };
                };
            };
            /** @description Too many requests: pin.locked, rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.locked" | "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable, service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable" | "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postServicesDataPurchase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "network": "mtn",
                 *       "plan_code": "mtn-1gb-1d",
                 *       "phone": "08011111111",
                 *       "amount": 350,
                 *       "pin": "12345",
                 *       "client_reference": "inv-20261127-0001"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description mtn, airtel, glo or 9mobile; optional: without it the network is detected from the number (GET /v1/lookup/phone/{phone}); a network the number is not on is 422 service.network_mismatch unless ported is true
                     * @enum {unknown}
                     */
                    network?: "mtn" | "airtel" | "glo" | "9mobile";
                    /** @description true when the number was ported to the network given: the network is then not checked against the number's prefix */
                    ported?: boolean;
                    /** @description the plan to buy, as GET /v1/services/data/plans lists it (plan_code or plan_id: the same value); plan_code or plan_id is required */
                    plan_code?: string;
                    /** @description another name of plan_code: give either (both: the same value) */
                    plan_id?: string;
                    phone: string;
                    /** @description NGN, at most 2 decimals */
                    amount: number;
                    pin: string;
                    /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                    client_reference?: string;
                    /** @description your own notes: stored on the order and echoed back */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            reference: string;
                            /** @enum {unknown} */
                            status: "pending" | "processing" | "delivered" | "failed";
                            /** @enum {unknown} */
                            network: "mtn" | "airtel" | "glo" | "9mobile";
                            phone: string;
                            plan: string;
                            plan_code: string;
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN debited from the wallet: amount − commission */
                            amount_charged: number;
                            /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                            commission: number;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_after: number;
                            delivered_at: string | null;
                            client_reference: string | null;
                            metadata: {
                                [key: string]: string;
                            } | null;
                            /** @description when the order is expected to be final (never earlier than its next re-query); null once it is settled */
                            expected_final_at: string | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: pin.incorrect, pin.not_set, auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.incorrect" | "pin.not_set" | "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: transaction.duplicate_reference, agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.duplicate_reference" | "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: wallet.insufficient_funds, wallet.limit_exceeded, transaction.failed, idempotency.key_reused, service.plan_not_found, service.amount_mismatch, service.network_mismatch */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "wallet.insufficient_funds" | "wallet.limit_exceeded" | "transaction.failed" | "idempotency.key_reused" | "service.plan_not_found" | "service.amount_mismatch" | "service.network_mismatch";
                        };
                    };
                };
            };
            /** @description Too many requests: pin.locked, rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.locked" | "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable, service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable" | "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postServicesElectricity: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "disco": "ikeja-electric",
                 *       "meter_number": "1111111111111",
                 *       "meter_type": "prepaid",
                 *       "amount": 5000,
                 *       "pin": "12345"
                 *     }
                 */
                "application/json": {
                    disco: string;
                    meter_number: string;
                    /** @enum {unknown} */
                    meter_type: "prepaid" | "postpaid";
                    /** @description NGN, at most 2 decimals */
                    amount: number;
                    pin: string;
                    /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                    client_reference?: string;
                    /** @description your own notes: stored on the order and echoed back */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            reference: string;
                            /** @enum {unknown} */
                            status: "pending" | "processing" | "delivered" | "failed";
                            token: string | null;
                            units: string | null;
                            meter_number: string;
                            /** @enum {unknown} */
                            meter_type: "prepaid" | "postpaid";
                            disco: string;
                            customer_name: string | null;
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN debited from the wallet: amount − commission */
                            amount_charged: number;
                            /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                            commission: number;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_after: number;
                            delivered_at: string | null;
                            client_reference: string | null;
                            metadata: {
                                [key: string]: string;
                            } | null;
                            /** @description when the order is expected to be final (never earlier than its next re-query); null once it is settled */
                            expected_final_at: string | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: pin.incorrect, pin.not_set, auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.incorrect" | "pin.not_set" | "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: transaction.duplicate_reference, agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.duplicate_reference" | "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: wallet.insufficient_funds, wallet.limit_exceeded, transaction.failed, idempotency.key_reused, service.invalid_meter, service.amount_below_minimum, service.meter_cannot_vend */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "wallet.insufficient_funds" | "wallet.limit_exceeded" | "transaction.failed" | "idempotency.key_reused" | "service.invalid_meter" | "service.amount_below_minimum" | "service.meter_cannot_vend";
                        };
                    };
                };
            };
            /** @description Too many requests: pin.locked, rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.locked" | "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable, service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable" | "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postServicesTv: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "provider": "gotv",
                 *       "smartcard_number": "1212121212",
                 *       "package_code": "gotv-max",
                 *       "amount": 8500,
                 *       "pin": "12345"
                 *     }
                 */
                "application/json": {
                    /** @enum {unknown} */
                    provider: "dstv" | "gotv" | "startimes";
                    smartcard_number: string;
                    package_code?: string;
                    /** @description NGN, at most 2 decimals */
                    amount: number;
                    pin: string;
                    /**
                     * @description change (default, as before: buy package_code) or renew (the smartcard's current package at its renewal amount; DStv and GOtv)
                     * @enum {unknown}
                     */
                    subscription_type?: "change" | "renew";
                    /** @description months, 1 to 12 (DStv and GOtv; StarTimes: 1), default 1 */
                    quantity?: number;
                    /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                    client_reference?: string;
                    /** @description your own notes: stored on the order and echoed back */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            reference: string;
                            /** @enum {unknown} */
                            status: "pending" | "processing" | "delivered" | "failed";
                            /** @enum {unknown} */
                            provider: "dstv" | "gotv" | "startimes";
                            smartcard_number: string;
                            /** @description null only for a renewal whose current package the provider did not name */
                            package_code: string | null;
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN debited from the wallet: amount − commission */
                            amount_charged: number;
                            /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                            commission: number;
                            customer_name: string | null;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_after: number;
                            delivered_at: string | null;
                            client_reference: string | null;
                            metadata: {
                                [key: string]: string;
                            } | null;
                            /** @description when the order is expected to be final (never earlier than its next re-query); null once it is settled */
                            expected_final_at: string | null;
                            /** @enum {unknown} */
                            subscription_type?: "change" | "renew";
                            /** @description months paid for */
                            quantity?: number;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: pin.incorrect, pin.not_set, auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.incorrect" | "pin.not_set" | "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: transaction.duplicate_reference, agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.duplicate_reference" | "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: wallet.insufficient_funds, wallet.limit_exceeded, transaction.failed, idempotency.key_reused, service.plan_not_found, service.amount_mismatch, service.invalid_smartcard, service.renewal_unavailable */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "wallet.insufficient_funds" | "wallet.limit_exceeded" | "transaction.failed" | "idempotency.key_reused" | "service.plan_not_found" | "service.amount_mismatch" | "service.invalid_smartcard" | "service.renewal_unavailable";
                        };
                    };
                };
            };
            /** @description Too many requests: pin.locked, rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.locked" | "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable, service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable" | "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postServicesEducation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "product": "waec-result-checker",
                 *       "quantity": 2,
                 *       "phone": "08011111111",
                 *       "amount": 7800,
                 *       "pin": "12345"
                 *     }
                 */
                "application/json": {
                    product: string;
                    /** @description PINs to buy (default 1), up to the product's quantity_max */
                    quantity?: number;
                    phone: string;
                    profile_id?: string;
                    /** @description NGN, at most 2 decimals */
                    amount: number;
                    pin: string;
                    /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                    client_reference?: string;
                    /** @description your own notes: stored on the order and echoed back */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            reference: string;
                            /** @enum {unknown} */
                            status: "pending" | "processing" | "delivered" | "failed";
                            product: string;
                            product_name: string | null;
                            exam: string;
                            quantity: number;
                            phone: string;
                            profile_id: string | null;
                            customer_name: string | null;
                            /** @description the purchased PINs once delivered; null while processing (fetch them again on GET /v1/transactions/{reference}) */
                            pins: {
                                /** @description the serial number, where the exam body gives one */
                                serial: string | null;
                                pin: string;
                            }[] | null;
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN debited from the wallet: amount − commission */
                            amount_charged: number;
                            /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                            commission: number;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_after: number;
                            delivered_at: string | null;
                            client_reference: string | null;
                            metadata: {
                                [key: string]: string;
                            } | null;
                            /** @description when the order is expected to be final (never earlier than its next re-query); null once it is settled */
                            expected_final_at: string | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: pin.incorrect, pin.not_set, auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.incorrect" | "pin.not_set" | "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: transaction.duplicate_reference, agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.duplicate_reference" | "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: wallet.insufficient_funds, wallet.limit_exceeded, transaction.failed, idempotency.key_reused, service.plan_not_found, service.amount_mismatch, service.invalid_profile */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "wallet.insufficient_funds" | "wallet.limit_exceeded" | "transaction.failed" | "idempotency.key_reused" | "service.plan_not_found" | "service.amount_mismatch" | "service.invalid_profile";
                        };
                    };
                };
            };
            /** @description Too many requests: pin.locked, rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.locked" | "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable, service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable" | "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postServicesInternet: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "provider": "smile",
                 *       "plan_code": "smile-1-5gb-7d",
                 *       "account": "08011111111",
                 *       "phone": "08011111111",
                 *       "amount": 1000,
                 *       "pin": "12345"
                 *     }
                 */
                "application/json": {
                    /** @enum {unknown} */
                    provider: "smile" | "spectranet";
                    /** @description the plan to buy, as GET /v1/services/internet/plans lists it (plan_code or plan_id: the same value); plan_code or plan_id is required */
                    plan_code?: string;
                    /** @description another name of plan_code: give either (both: the same value) */
                    plan_id?: string;
                    account?: string;
                    phone: string;
                    /** @description NGN, at most 2 decimals */
                    amount: number;
                    pin: string;
                    /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                    client_reference?: string;
                    /** @description your own notes: stored on the order and echoed back */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            reference: string;
                            /** @enum {unknown} */
                            status: "pending" | "processing" | "delivered" | "failed";
                            /** @enum {unknown} */
                            provider: "smile" | "spectranet";
                            plan_code: string;
                            plan: string | null;
                            account: string | null;
                            phone: string;
                            customer_name: string | null;
                            /** @description Spectranet: the purchased PIN once delivered; null for Smile and while processing */
                            pins: {
                                serial: string | null;
                                pin: string;
                            }[] | null;
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN debited from the wallet: amount − commission */
                            amount_charged: number;
                            /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                            commission: number;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_after: number;
                            delivered_at: string | null;
                            client_reference: string | null;
                            metadata: {
                                [key: string]: string;
                            } | null;
                            /** @description when the order is expected to be final (never earlier than its next re-query); null once it is settled */
                            expected_final_at: string | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: pin.incorrect, pin.not_set, auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.incorrect" | "pin.not_set" | "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: transaction.duplicate_reference, agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.duplicate_reference" | "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: wallet.insufficient_funds, wallet.limit_exceeded, transaction.failed, idempotency.key_reused, service.plan_not_found, service.amount_mismatch, service.invalid_account */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "wallet.insufficient_funds" | "wallet.limit_exceeded" | "transaction.failed" | "idempotency.key_reused" | "service.plan_not_found" | "service.amount_mismatch" | "service.invalid_account";
                        };
                    };
                };
            };
            /** @description Too many requests: pin.locked, rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.locked" | "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable, service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable" | "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postServicesShowmax: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "phone": "08011111111",
                 *       "plan_code": "showmax-mobile-3m",
                 *       "amount": 3800,
                 *       "pin": "12345"
                 *     }
                 */
                "application/json": {
                    phone: string;
                    /** @description the plan to buy, as GET /v1/services/showmax/plans lists it */
                    plan_code: string;
                    /** @description NGN, at most 2 decimals */
                    amount: number;
                    pin: string;
                    /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                    client_reference?: string;
                    /** @description your own notes: stored on the order and echoed back */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            reference: string;
                            /** @enum {unknown} */
                            status: "pending" | "processing" | "delivered" | "failed";
                            /** @description the phone number of the Showmax account */
                            phone: string;
                            plan_code: string;
                            plan: string | null;
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN debited from the wallet: amount − commission */
                            amount_charged: number;
                            /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                            commission: number;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_after: number;
                            delivered_at: string | null;
                            client_reference: string | null;
                            metadata: {
                                [key: string]: string;
                            } | null;
                            /** @description when the order is expected to be final (never earlier than its next re-query); null once it is settled */
                            expected_final_at: string | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: pin.incorrect, pin.not_set, auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.incorrect" | "pin.not_set" | "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: transaction.duplicate_reference, agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.duplicate_reference" | "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: wallet.insufficient_funds, wallet.limit_exceeded, transaction.failed, idempotency.key_reused, service.plan_not_found, service.amount_mismatch */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "wallet.insufficient_funds" | "wallet.limit_exceeded" | "transaction.failed" | "idempotency.key_reused" | "service.plan_not_found" | "service.amount_mismatch";
                        };
                    };
                };
            };
            /** @description Too many requests: pin.locked, rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.locked" | "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable, service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable" | "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postServicesInternational: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "quote_id": "qt_8k2m4q6s8u0w2y4a6c8e",
                 *       "phone": "233241234567",
                 *       "pin": "12345"
                 *     }
                 */
                "application/json": {
                    /** @description the quote_id of POST /v1/services/international/quote */
                    quote_id: string;
                    /** @description the number to top up: 7 to 15 digits, such as 233241234567 */
                    phone: string;
                    pin: string;
                    /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                    client_reference?: string;
                    /** @description your own notes: stored on the order and echoed back */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            reference: string;
                            /** @enum {unknown} */
                            status: "pending" | "processing" | "delivered" | "failed";
                            phone: string;
                            product_code: string;
                            product: string | null;
                            international: {
                                /** @description the quote the purchase named */
                                quote_id: string;
                                /** @description ISO 3166 alpha-2 country code, as GET /v1/services/international/countries lists it */
                                country: string;
                                /** @description the operator's currency (ISO 4217) */
                                currency: string;
                                operator_id: string;
                                operator: string | null;
                                product_type_id: string;
                                fixed_price: boolean;
                                foreign_amount: string | null;
                                rate: string | null;
                            };
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN debited from the wallet: amount − commission */
                            amount_charged: number;
                            /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                            commission: number;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_after: number;
                            delivered_at: string | null;
                            client_reference: string | null;
                            metadata: {
                                [key: string]: string;
                            } | null;
                            /** @description when the order is expected to be final (never earlier than its next re-query); null once it is settled */
                            expected_final_at: string | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: pin.incorrect, pin.not_set, auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.incorrect" | "pin.not_set" | "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: service.quote_not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.quote_not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: transaction.duplicate_reference, agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.duplicate_reference" | "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: wallet.insufficient_funds, wallet.limit_exceeded, transaction.failed, idempotency.key_reused, service.quote_expired */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "wallet.insufficient_funds" | "wallet.limit_exceeded" | "transaction.failed" | "idempotency.key_reused" | "service.quote_expired";
                        };
                    };
                };
            };
            /** @description Too many requests: pin.locked, rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.locked" | "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable, service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable" | "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postServicesElectricityVerify: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "disco": "ikeja-electric",
                 *       "meter_number": "1111111111111",
                 *       "meter_type": "prepaid"
                 *     }
                 */
                "application/json": {
                    disco: string;
                    meter_number: string;
                    /** @enum {unknown} */
                    meter_type: "prepaid" | "postpaid";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            customer_name: string;
                            address: string | null;
                            current_package?: string | null;
                            due_date?: string | null;
                            arrears: number | null;
                            minimum_amount: number | null;
                            can_vend: boolean | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: service.invalid_meter */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.invalid_meter";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable, service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable" | "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postServicesTvVerify: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "provider": "dstv",
                 *       "smartcard_number": "1313131313"
                 *     }
                 */
                "application/json": {
                    /** @enum {unknown} */
                    provider: "dstv" | "gotv" | "startimes";
                    smartcard_number: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            customer_name: string;
                            address: string | null;
                            current_package?: string | null;
                            due_date?: string | null;
                            current_package_code: string | null;
                            renewal_amount: number | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: service.invalid_smartcard */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.invalid_smartcard";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable, service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable" | "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postServicesEducationVerify: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "product": "jamb-utme",
                 *       "profile_id": "1234567890"
                 *     }
                 */
                "application/json": {
                    product: string;
                    profile_id: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            product: string;
                            profile_id: string;
                            customer_name: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: service.invalid_profile */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.invalid_profile";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable, service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable" | "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postServicesInternetVerify: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "provider": "smile",
                 *       "account": "08011111111"
                 *     }
                 */
                "application/json": {
                    /** @enum {unknown} */
                    provider: "smile" | "spectranet";
                    account: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            /** @enum {unknown} */
                            provider: "smile" | "spectranet";
                            account: string;
                            customer_name: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: service.invalid_account */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.invalid_account";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: transaction.provider_unavailable, service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.provider_unavailable" | "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postServicesInternationalQuote: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "country": "GH",
                 *       "operator": "5",
                 *       "product_type": "1",
                 *       "product_code": "gh-mtn-topup",
                 *       "foreign_amount": "10.50"
                 *     }
                 */
                "application/json": {
                    /** @description ISO 3166 alpha-2 country code, as GET /v1/services/international/countries lists it */
                    country: string;
                    /** @description operator_id, as GET /v1/services/international/operators lists it */
                    operator: string;
                    /** @description product_type_id, as GET /v1/services/international/operators lists it (1 Mobile Top Up, 4 Mobile Data in VTpass's example) */
                    product_type: string;
                    /** @description a product_code from GET /v1/services/international/products */
                    product_code: string;
                    /** @description an amount in the operator's currency as decimal text with at most 2 decimals, such as "10.50" */
                    foreign_amount?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            quote_id: string;
                            country: string;
                            currency: string;
                            operator_id: string;
                            operator: string | null;
                            product_type_id: string;
                            product_code: string;
                            product: string;
                            fixed_price: boolean;
                            foreign_amount: string | null;
                            rate: string | null;
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN debited from the wallet: amount − commission */
                            amount_charged: number;
                            /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                            commission: number;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            expires_at: string;
                            /** @description how long the quote holds from now: 600 (10 minutes) */
                            valid_for_seconds: number;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: service.product_not_found */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.product_not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable, transaction.provider_unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable" | "transaction.provider_unavailable";
                        };
                    };
                };
            };
        };
    };
    getLookupPhoneByPhone: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                phone: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description the number in local form (0 and 10 digits) */
                            phone: string;
                            /** @description the network the number is on; null when its prefix belongs to none of the four and no delivery says otherwise */
                            network: ("mtn" | "airtel" | "glo" | "9mobile") | null;
                            /** @description true when a live delivery showed the number on a network other than its prefix's */
                            ported: boolean;
                            /**
                             * @description prefix: the Nigerian numbering plan; delivery: where a live order was last delivered to it
                             * @enum {unknown}
                             */
                            source: "prefix" | "delivery";
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    postServicesBulk: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "pin": "12345",
                 *       "items": [
                 *         {
                 *           "service_type": "airtime",
                 *           "network": "mtn",
                 *           "phone": "08011111111",
                 *           "amount": 100,
                 *           "client_reference": "inv-0001"
                 *         },
                 *         {
                 *           "service_type": "data",
                 *           "network": "mtn",
                 *           "plan_code": "mtn-1gb-1d",
                 *           "phone": "08011111111",
                 *           "amount": 350
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    pin: string;
                    /** @description each item is the purchase body of its service_type without pin (client_reference and metadata optional); an item that fails its own validation is refused alone, with its error in data.items */
                    items: ({
                        /** @constant */
                        service_type: "airtime";
                        /**
                         * @description mtn, airtel, glo or 9mobile; optional: without it the network is detected from the number (GET /v1/lookup/phone/{phone}); a network the number is not on is 422 service.network_mismatch unless ported is true
                         * @enum {unknown}
                         */
                        network?: "mtn" | "airtel" | "glo" | "9mobile";
                        /** @description true when the number was ported to the network given: the network is then not checked against the number's prefix */
                        ported?: boolean;
                        phone: string;
                        /** @description NGN, at most 2 decimals */
                        amount: number;
                        /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                        client_reference?: string;
                        /** @description your own notes: stored on the order and echoed back */
                        metadata?: {
                            [key: string]: string;
                        };
                    } | {
                        /** @constant */
                        service_type: "data";
                        /**
                         * @description mtn, airtel, glo or 9mobile; optional: without it the network is detected from the number (GET /v1/lookup/phone/{phone}); a network the number is not on is 422 service.network_mismatch unless ported is true
                         * @enum {unknown}
                         */
                        network?: "mtn" | "airtel" | "glo" | "9mobile";
                        /** @description true when the number was ported to the network given: the network is then not checked against the number's prefix */
                        ported?: boolean;
                        /** @description the plan to buy, as GET /v1/services/data/plans lists it (plan_code or plan_id: the same value); plan_code or plan_id is required */
                        plan_code?: string;
                        /** @description another name of plan_code: give either (both: the same value) */
                        plan_id?: string;
                        phone: string;
                        /** @description NGN, at most 2 decimals */
                        amount: number;
                        /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                        client_reference?: string;
                        /** @description your own notes: stored on the order and echoed back */
                        metadata?: {
                            [key: string]: string;
                        };
                    } | {
                        /** @constant */
                        service_type: "electricity";
                        disco: string;
                        meter_number: string;
                        /** @enum {unknown} */
                        meter_type: "prepaid" | "postpaid";
                        /** @description NGN, at most 2 decimals */
                        amount: number;
                        /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                        client_reference?: string;
                        /** @description your own notes: stored on the order and echoed back */
                        metadata?: {
                            [key: string]: string;
                        };
                    } | {
                        /** @constant */
                        service_type: "tv";
                        /** @enum {unknown} */
                        provider: "dstv" | "gotv" | "startimes";
                        smartcard_number: string;
                        package_code?: string;
                        /** @description NGN, at most 2 decimals */
                        amount: number;
                        /**
                         * @description change (default, as before: buy package_code) or renew (the smartcard's current package at its renewal amount; DStv and GOtv)
                         * @enum {unknown}
                         */
                        subscription_type?: "change" | "renew";
                        /** @description months, 1 to 12 (DStv and GOtv; StarTimes: 1), default 1 */
                        quantity?: number;
                        /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                        client_reference?: string;
                        /** @description your own notes: stored on the order and echoed back */
                        metadata?: {
                            [key: string]: string;
                        };
                    } | {
                        /** @constant */
                        service_type: "education";
                        product: string;
                        /** @description PINs to buy (default 1), up to the product's quantity_max */
                        quantity?: number;
                        phone: string;
                        profile_id?: string;
                        /** @description NGN, at most 2 decimals */
                        amount: number;
                        /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                        client_reference?: string;
                        /** @description your own notes: stored on the order and echoed back */
                        metadata?: {
                            [key: string]: string;
                        };
                    } | {
                        /** @constant */
                        service_type: "internet";
                        /** @enum {unknown} */
                        provider: "smile" | "spectranet";
                        /** @description the plan to buy, as GET /v1/services/internet/plans lists it (plan_code or plan_id: the same value); plan_code or plan_id is required */
                        plan_code?: string;
                        /** @description another name of plan_code: give either (both: the same value) */
                        plan_id?: string;
                        account?: string;
                        phone: string;
                        /** @description NGN, at most 2 decimals */
                        amount: number;
                        /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                        client_reference?: string;
                        /** @description your own notes: stored on the order and echoed back */
                        metadata?: {
                            [key: string]: string;
                        };
                    } | {
                        /** @constant */
                        service_type: "showmax";
                        phone: string;
                        /** @description the plan to buy, as GET /v1/services/showmax/plans lists it */
                        plan_code: string;
                        /** @description NGN, at most 2 decimals */
                        amount: number;
                        /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                        client_reference?: string;
                        /** @description your own notes: stored on the order and echoed back */
                        metadata?: {
                            [key: string]: string;
                        };
                    } | {
                        /** @constant */
                        service_type: "international";
                        /** @description the quote_id of POST /v1/services/international/quote */
                        quote_id: string;
                        /** @description the number to top up: 7 to 15 digits, such as 233241234567 */
                        phone: string;
                        /** @description your own reference for this purchase, unique per account and environment for ever: a second purchase with it is 409 transaction.duplicate_reference */
                        client_reference?: string;
                        /** @description your own notes: stored on the order and echoed back */
                        metadata?: {
                            [key: string]: string;
                        };
                    })[];
                };
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            /** @description the batch id */
                            id: string;
                            /**
                             * @description completed once every item is final (delivered, failed or refused); the batch.completed event follows
                             * @enum {unknown}
                             */
                            status: "processing" | "completed";
                            items_count: number;
                            counts: {
                                processing: number;
                                delivered: number;
                                failed: number;
                                refused: number;
                            };
                            items: {
                                /** @description the item's position in items, from 0 */
                                index: number;
                                service_type: string;
                                /** @description the order this item placed (GET /v1/transactions/{reference}); null when it was refused */
                                reference: string | null;
                                /**
                                 * @description the order's status now (failed: refunded); refused: nothing was placed nor debited, see error
                                 * @enum {unknown}
                                 */
                                status: "processing" | "delivered" | "failed" | "refused";
                                client_reference: string | null;
                                /** @description why the item was refused, in the shape of an error answer */
                                error: {
                                    /** @description stable code (docs/api.md "Errors"): validation.failed, wallet.insufficient_funds, wallet.limit_exceeded, transaction.duplicate_reference, … */
                                    code: string;
                                    message: string;
                                    details?: {
                                        /** @description items.<index>.<field> */
                                        field: string;
                                        message: string;
                                    }[];
                                    /** @description transaction.duplicate_reference: the order that holds the client_reference */
                                    reference?: string;
                                } | null;
                            }[];
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            completed_at: string | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: pin.incorrect, pin.not_set, auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.incorrect" | "pin.not_set" | "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: idempotency.key_reused */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "idempotency.key_reused";
                        };
                    };
                };
            };
            /** @description Too many requests: pin.locked, rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "pin.locked" | "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    getServicesBulkById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description the batch id */
                            id: string;
                            /**
                             * @description completed once every item is final (delivered, failed or refused); the batch.completed event follows
                             * @enum {unknown}
                             */
                            status: "processing" | "completed";
                            items_count: number;
                            counts: {
                                processing: number;
                                delivered: number;
                                failed: number;
                                refused: number;
                            };
                            items: {
                                /** @description the item's position in items, from 0 */
                                index: number;
                                service_type: string;
                                /** @description the order this item placed (GET /v1/transactions/{reference}); null when it was refused */
                                reference: string | null;
                                /**
                                 * @description the order's status now (failed: refunded); refused: nothing was placed nor debited, see error
                                 * @enum {unknown}
                                 */
                                status: "processing" | "delivered" | "failed" | "refused";
                                client_reference: string | null;
                                /** @description why the item was refused, in the shape of an error answer */
                                error: {
                                    /** @description stable code (docs/api.md "Errors"): validation.failed, wallet.insufficient_funds, wallet.limit_exceeded, transaction.duplicate_reference, … */
                                    code: string;
                                    message: string;
                                    details?: {
                                        /** @description items.<index>.<field> */
                                        field: string;
                                        message: string;
                                    }[];
                                    /** @description transaction.duplicate_reference: the order that holds the client_reference */
                                    reference?: string;
                                } | null;
                            }[];
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            completed_at: string | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: batch.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "batch.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getServicesStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            services: {
                                /** @description service type, or service type/network, disco or TV provider */
                                product: string;
                                /** @enum {unknown} */
                                service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                                /** @enum {unknown} */
                                status: "available" | "degraded" | "unavailable";
                                retry_after_s: number | null;
                            }[];
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            checked_at: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getTransactions: {
        parameters: {
            query?: {
                /** @description items per page (default 20, max 100) */
                per_page?: number;
                /** @description page number (default 1, max 1,000,000; past the last page the list is empty) */
                page?: number;
                /** @description the X-Idempotency-Key of the purchase */
                idempotency_key?: string;
                /** @description the status as the list shows it, or as the record does: a delivered order is listed successful, and successful and delivered both find it */
                status?: "pending" | "processing" | "successful" | "delivered" | "failed";
                /** @description the service: airtime, data, electricity, tv, education, internet, showmax or international */
                service_type?: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                /** @description the exact phone, meter or smartcard number */
                recipient?: string;
                /** @description the exact client_reference the purchase carried: it names one order at most */
                client_reference?: string;
                /** @description a date YYYY-MM-DD (from the start of that Africa/Lagos day) or an ISO 8601 timestamp, inclusive */
                from?: string;
                /** @description a date YYYY-MM-DD (to the end of that Africa/Lagos day) or an ISO 8601 timestamp, inclusive */
                to?: string;
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            transactions: {
                                /** @description BV-YYYYMMDD-XXXXXXXXXXXX */
                                reference: string;
                                /** @enum {unknown} */
                                service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                                recipient: string;
                                /** @description NGN amount with at most 2 decimal places */
                                amount: number;
                                /** @description NGN debited from the wallet: amount − commission */
                                amount_charged: number;
                                /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                                commission: number;
                                /**
                                 * @description a delivered order shows as successful
                                 * @enum {unknown}
                                 */
                                status: "successful" | "processing" | "pending" | "failed";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                created_at: string;
                                client_reference: string | null;
                                metadata: {
                                    [key: string]: string;
                                } | null;
                            }[];
                            pagination: {
                                total: number;
                                per_page: number;
                                current_page: number;
                                last_page: number;
                            };
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getTransactionsExport: {
        parameters: {
            query: {
                /** @description the status as the list shows it, or as the record does: a delivered order is listed successful, and successful and delivered both find it */
                status?: "pending" | "processing" | "successful" | "delivered" | "failed";
                /** @description the service: airtime, data, electricity, tv, education, internet, showmax or international */
                service_type?: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                /** @description the exact phone, meter or smartcard number */
                recipient?: string;
                /** @description the exact client_reference the purchase carried: it names one order at most */
                client_reference?: string;
                /** @description a date YYYY-MM-DD (from the start of that Africa/Lagos day) or an ISO 8601 timestamp, inclusive */
                from: string;
                /** @description a date YYYY-MM-DD (to the end of that Africa/Lagos day) or an ISO 8601 timestamp, inclusive */
                to: string;
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": Record<string, never>;
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getTransactionsByReference: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                reference: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            reference: string;
                            /** @enum {unknown} */
                            service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                            /** @enum {unknown} */
                            environment: "live" | "test";
                            network: string | null;
                            disco: string | null;
                            provider: string | null;
                            recipient: string;
                            plan: string | null;
                            plan_code: string | null;
                            package_code: string | null;
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN debited from the wallet: amount − commission */
                            amount_charged: number;
                            /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                            commission: number;
                            /** @enum {unknown} */
                            status: "pending" | "processing" | "delivered" | "failed";
                            token: string | null;
                            units: string | null;
                            meter_type: ("prepaid" | "postpaid") | null;
                            customer_name: string | null;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_before: number;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_after: number;
                            failure_reason: string | null;
                            reversed: boolean;
                            needs_review: boolean;
                            /** @description when the order is expected to be final (never earlier than its next re-query); null once it is settled */
                            expected_final_at: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            updated_at: string;
                            delivered_at: string | null;
                            failed_at: string | null;
                            reversed_at: string | null;
                            status_history: {
                                /** @enum {unknown} */
                                status: "pending" | "processing" | "delivered" | "failed";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                at: string;
                            }[];
                            attempts?: {
                                /** @description The upstream the order was handed to */
                                upstream: string;
                                /** @description The request id sent to that upstream; a new one per upstream */
                                request_id: string;
                                /** @enum {unknown} */
                                outcome: "sent" | "refused" | "failed" | "processing" | "unknown" | "delivered";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                at: string;
                            }[];
                            quantity?: number;
                            customer_id?: string | null;
                            /** @enum {unknown} */
                            subscription_type?: "change" | "renew";
                            pins?: {
                                serial: string | null;
                                pin: string;
                            }[];
                            bonus_token?: string;
                            key_change_tokens?: string[];
                            international?: {
                                /** @description the quote the purchase named */
                                quote_id: string;
                                /** @description ISO 3166 alpha-2 country code, as GET /v1/services/international/countries lists it */
                                country: string;
                                /** @description the operator's currency (ISO 4217) */
                                currency: string;
                                operator_id: string;
                                operator: string | null;
                                product_type_id: string;
                                fixed_price: boolean;
                                foreign_amount: string | null;
                                rate: string | null;
                            };
                            client_reference: string | null;
                            metadata: {
                                [key: string]: string;
                            } | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: transaction.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    postTransactionsByReferenceRequery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                reference: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            reference: string;
                            /** @enum {unknown} */
                            service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                            /** @enum {unknown} */
                            environment: "live" | "test";
                            network: string | null;
                            disco: string | null;
                            provider: string | null;
                            recipient: string;
                            plan: string | null;
                            plan_code: string | null;
                            package_code: string | null;
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN debited from the wallet: amount − commission */
                            amount_charged: number;
                            /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                            commission: number;
                            /** @enum {unknown} */
                            status: "pending" | "processing" | "delivered" | "failed";
                            token: string | null;
                            units: string | null;
                            meter_type: ("prepaid" | "postpaid") | null;
                            customer_name: string | null;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_before: number;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_after: number;
                            failure_reason: string | null;
                            reversed: boolean;
                            needs_review: boolean;
                            /** @description when the order is expected to be final (never earlier than its next re-query); null once it is settled */
                            expected_final_at: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            updated_at: string;
                            delivered_at: string | null;
                            failed_at: string | null;
                            reversed_at: string | null;
                            status_history: {
                                /** @enum {unknown} */
                                status: "pending" | "processing" | "delivered" | "failed";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                at: string;
                            }[];
                            attempts?: {
                                /** @description The upstream the order was handed to */
                                upstream: string;
                                /** @description The request id sent to that upstream; a new one per upstream */
                                request_id: string;
                                /** @enum {unknown} */
                                outcome: "sent" | "refused" | "failed" | "processing" | "unknown" | "delivered";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                at: string;
                            }[];
                            quantity?: number;
                            customer_id?: string | null;
                            /** @enum {unknown} */
                            subscription_type?: "change" | "renew";
                            pins?: {
                                serial: string | null;
                                pin: string;
                            }[];
                            bonus_token?: string;
                            key_change_tokens?: string[];
                            international?: {
                                /** @description the quote the purchase named */
                                quote_id: string;
                                /** @description ISO 3166 alpha-2 country code, as GET /v1/services/international/countries lists it */
                                country: string;
                                /** @description the operator's currency (ISO 4217) */
                                currency: string;
                                operator_id: string;
                                operator: string | null;
                                product_type_id: string;
                                fixed_price: boolean;
                                foreign_amount: string | null;
                                rate: string | null;
                            };
                            client_reference: string | null;
                            metadata: {
                                [key: string]: string;
                            } | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: transaction.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postTransactionsByReferenceCancel: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                reference: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            reference: string;
                            /** @enum {unknown} */
                            service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                            /** @enum {unknown} */
                            environment: "live" | "test";
                            network: string | null;
                            disco: string | null;
                            provider: string | null;
                            recipient: string;
                            plan: string | null;
                            plan_code: string | null;
                            package_code: string | null;
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN debited from the wallet: amount − commission */
                            amount_charged: number;
                            /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                            commission: number;
                            /** @enum {unknown} */
                            status: "pending" | "processing" | "delivered" | "failed";
                            token: string | null;
                            units: string | null;
                            meter_type: ("prepaid" | "postpaid") | null;
                            customer_name: string | null;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_before: number;
                            /** @description NGN amount with at most 2 decimal places */
                            wallet_balance_after: number;
                            failure_reason: string | null;
                            reversed: boolean;
                            needs_review: boolean;
                            /** @description when the order is expected to be final (never earlier than its next re-query); null once it is settled */
                            expected_final_at: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            updated_at: string;
                            delivered_at: string | null;
                            failed_at: string | null;
                            reversed_at: string | null;
                            status_history: {
                                /** @enum {unknown} */
                                status: "pending" | "processing" | "delivered" | "failed";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                at: string;
                            }[];
                            attempts?: {
                                /** @description The upstream the order was handed to */
                                upstream: string;
                                /** @description The request id sent to that upstream; a new one per upstream */
                                request_id: string;
                                /** @enum {unknown} */
                                outcome: "sent" | "refused" | "failed" | "processing" | "unknown" | "delivered";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                at: string;
                            }[];
                            quantity?: number;
                            customer_id?: string | null;
                            /** @enum {unknown} */
                            subscription_type?: "change" | "renew";
                            pins?: {
                                serial: string | null;
                                pin: string;
                            }[];
                            bonus_token?: string;
                            key_change_tokens?: string[];
                            international?: {
                                /** @description the quote the purchase named */
                                quote_id: string;
                                /** @description ISO 3166 alpha-2 country code, as GET /v1/services/international/countries lists it */
                                country: string;
                                /** @description the operator's currency (ISO 4217) */
                                currency: string;
                                operator_id: string;
                                operator: string | null;
                                product_type_id: string;
                                fixed_price: boolean;
                                foreign_amount: string | null;
                                rate: string | null;
                            };
                            client_reference: string | null;
                            metadata: {
                                [key: string]: string;
                            } | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: transaction.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: transaction.not_cancellable, agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.not_cancellable" | "agents.closed";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    getWebhooks: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            webhooks: {
                                id: number;
                                url: string;
                                /**
                                 * @description live (real money) or test (sandbox)
                                 * @enum {unknown}
                                 */
                                environment: "live" | "test";
                                events: ("transaction.completed" | "transaction.failed" | "transaction.processing" | "transaction.delayed" | "transaction.reversed" | "wallet.credited" | "wallet.debited" | "wallet.reversed" | "wallet.low_balance" | "service.status_changed" | "batch.completed")[];
                                description: string;
                                secret_hint: string;
                                /** @description after a roll: until when deliveries are also signed with the previous secret; null otherwise */
                                previous_secret_expires_at: string | null;
                                enabled: boolean;
                                disabled_reason: string | null;
                                /** @description whether the endpoint also receives the events of the agents below the account */
                                include_agents: boolean;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                created_at: string;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    postWebhooks: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://example.ng/billvend/hooks",
                 *       "events": [
                 *         "transaction.completed",
                 *         "transaction.failed"
                 *       ],
                 *       "description": "Order updates"
                 *     }
                 */
                "application/json": {
                    /** Format: uri */
                    url: string;
                    events?: ("transaction.completed" | "transaction.failed" | "transaction.processing" | "transaction.delayed" | "transaction.reversed" | "wallet.credited" | "wallet.debited" | "wallet.reversed" | "wallet.low_balance" | "service.status_changed" | "batch.completed")[];
                    description?: string;
                    /** @description also receive the events of every agent below the account (each carries account); default false */
                    include_agents?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            id: number;
                            url: string;
                            /**
                             * @description live (real money) or test (sandbox)
                             * @enum {unknown}
                             */
                            environment: "live" | "test";
                            events: ("transaction.completed" | "transaction.failed" | "transaction.processing" | "transaction.delayed" | "transaction.reversed" | "wallet.credited" | "wallet.debited" | "wallet.reversed" | "wallet.low_balance" | "service.status_changed" | "batch.completed")[];
                            description: string;
                            secret_hint: string;
                            /** @description after a roll: until when deliveries are also signed with the previous secret; null otherwise */
                            previous_secret_expires_at: string | null;
                            enabled: boolean;
                            disabled_reason: string | null;
                            /** @description whether the endpoint also receives the events of the agents below the account */
                            include_agents: boolean;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            /** @description whsec_…: shown only in this response */
                            secret: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: webhooks.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "webhooks.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: webhooks.limit_reached, idempotency.key_reused */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "webhooks.limit_reached" | "idempotency.key_reused";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    deleteWebhooksById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: null;
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: webhooks.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "webhooks.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    patchWebhooksById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "events": [
                 *         "transaction.completed",
                 *         "transaction.failed",
                 *         "wallet.low_balance"
                 *       ]
                 *     }
                 */
                "application/json": {
                    events?: ("transaction.completed" | "transaction.failed" | "transaction.processing" | "transaction.delayed" | "transaction.reversed" | "wallet.credited" | "wallet.debited" | "wallet.reversed" | "wallet.low_balance" | "service.status_changed" | "batch.completed")[];
                    description?: string;
                    /** @description also receive the events of every agent below the account (each carries account); default false */
                    include_agents?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            id: number;
                            url: string;
                            /**
                             * @description live (real money) or test (sandbox)
                             * @enum {unknown}
                             */
                            environment: "live" | "test";
                            events: ("transaction.completed" | "transaction.failed" | "transaction.processing" | "transaction.delayed" | "transaction.reversed" | "wallet.credited" | "wallet.debited" | "wallet.reversed" | "wallet.low_balance" | "service.status_changed" | "batch.completed")[];
                            description: string;
                            secret_hint: string;
                            /** @description after a roll: until when deliveries are also signed with the previous secret; null otherwise */
                            previous_secret_expires_at: string | null;
                            enabled: boolean;
                            disabled_reason: string | null;
                            /** @description whether the endpoint also receives the events of the agents below the account */
                            include_agents: boolean;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: webhooks.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "webhooks.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    getWebhooksByIdDeliveries: {
        parameters: {
            query?: {
                /** @description items per page (default 20, max 100) */
                per_page?: number;
                /** @description page number (default 1, max 1,000,000; past the last page the list is empty) */
                page?: number;
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            deliveries: {
                                id: number;
                                endpoint_id: number;
                                event_id: string;
                                /** @enum {unknown} */
                                event: "transaction.completed" | "transaction.failed" | "transaction.processing" | "transaction.delayed" | "transaction.reversed" | "wallet.credited" | "wallet.debited" | "wallet.reversed" | "wallet.low_balance" | "service.status_changed" | "batch.completed" | "webhook.test";
                                /** @enum {unknown} */
                                status: "pending" | "delivered" | "dead" | "cancelled";
                                series: number;
                                next_attempt_at: string | null;
                                attempts: {
                                    /** @description a replay starts a new series */
                                    series: number;
                                    number: number;
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 UTC with microseconds
                                     */
                                    at: string;
                                    status_code: number | null;
                                    duration_ms: number;
                                    error: string | null;
                                }[];
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                created_at: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                updated_at: string;
                            }[];
                            pagination: {
                                total: number;
                                per_page: number;
                                current_page: number;
                                last_page: number;
                            };
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: webhooks.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "webhooks.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    postWebhooksByIdDeliveriesByDeliveryIdReplay: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
                delivery_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            id: number;
                            endpoint_id: number;
                            event_id: string;
                            /** @enum {unknown} */
                            event: "transaction.completed" | "transaction.failed" | "transaction.processing" | "transaction.delayed" | "transaction.reversed" | "wallet.credited" | "wallet.debited" | "wallet.reversed" | "wallet.low_balance" | "service.status_changed" | "batch.completed" | "webhook.test";
                            /** @enum {unknown} */
                            status: "pending" | "delivered" | "dead" | "cancelled";
                            series: number;
                            next_attempt_at: string | null;
                            attempts: {
                                /** @description a replay starts a new series */
                                series: number;
                                number: number;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                at: string;
                                status_code: number | null;
                                duration_ms: number;
                                error: string | null;
                            }[];
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            updated_at: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: webhooks.not_found, webhooks.delivery_not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "webhooks.not_found" | "webhooks.delivery_not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postWebhooksByIdTest: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            id: number;
                            endpoint_id: number;
                            event_id: string;
                            /** @enum {unknown} */
                            event: "transaction.completed" | "transaction.failed" | "transaction.processing" | "transaction.delayed" | "transaction.reversed" | "wallet.credited" | "wallet.debited" | "wallet.reversed" | "wallet.low_balance" | "service.status_changed" | "batch.completed" | "webhook.test";
                            /** @enum {unknown} */
                            status: "pending" | "delivered" | "dead" | "cancelled";
                            series: number;
                            next_attempt_at: string | null;
                            attempts: {
                                /** @description a replay starts a new series */
                                series: number;
                                number: number;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                at: string;
                                status_code: number | null;
                                duration_ms: number;
                                error: string | null;
                            }[];
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            updated_at: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: webhooks.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "webhooks.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postWebhooksByIdRollSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            id: number;
                            url: string;
                            /**
                             * @description live (real money) or test (sandbox)
                             * @enum {unknown}
                             */
                            environment: "live" | "test";
                            events: ("transaction.completed" | "transaction.failed" | "transaction.processing" | "transaction.delayed" | "transaction.reversed" | "wallet.credited" | "wallet.debited" | "wallet.reversed" | "wallet.low_balance" | "service.status_changed" | "batch.completed")[];
                            description: string;
                            secret_hint: string;
                            /** @description after a roll: until when deliveries are also signed with the previous secret; null otherwise */
                            previous_secret_expires_at: string | null;
                            enabled: boolean;
                            disabled_reason: string | null;
                            /** @description whether the endpoint also receives the events of the agents below the account */
                            include_agents: boolean;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            /** @description the new whsec_…: shown only in this response */
                            secret: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: webhooks.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "webhooks.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postWebhooksByIdDeliveriesByDeliveryIdRetry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                id: number;
                delivery_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            id: number;
                            endpoint_id: number;
                            event_id: string;
                            /** @enum {unknown} */
                            event: "transaction.completed" | "transaction.failed" | "transaction.processing" | "transaction.delayed" | "transaction.reversed" | "wallet.credited" | "wallet.debited" | "wallet.reversed" | "wallet.low_balance" | "service.status_changed" | "batch.completed" | "webhook.test";
                            /** @enum {unknown} */
                            status: "pending" | "delivered" | "dead" | "cancelled";
                            series: number;
                            next_attempt_at: string | null;
                            attempts: {
                                /** @description a replay starts a new series */
                                series: number;
                                number: number;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                at: string;
                                status_code: number | null;
                                duration_ms: number;
                                error: string | null;
                            }[];
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            updated_at: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: webhooks.not_found, webhooks.delivery_not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "webhooks.not_found" | "webhooks.delivery_not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: webhooks.delivery_not_retryable, agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "webhooks.delivery_not_retryable" | "agents.closed";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    getEvents: {
        parameters: {
            query?: {
                /** @description an event id: the events after it (exclusive); absent: from the oldest kept */
                after?: string;
                /** @description events per page (default 20, max 100) */
                limit?: number;
                /** @description only events of this kind */
                type?: "transaction.completed" | "transaction.failed" | "transaction.processing" | "transaction.delayed" | "transaction.reversed" | "wallet.credited" | "wallet.debited" | "wallet.reversed" | "wallet.low_balance" | "service.status_changed" | "batch.completed";
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description oldest first */
                            events: {
                                /** @enum {unknown} */
                                event: "transaction.completed" | "transaction.failed" | "transaction.processing" | "transaction.delayed" | "transaction.reversed" | "wallet.credited" | "wallet.debited" | "wallet.reversed" | "wallet.low_balance" | "service.status_changed" | "batch.completed";
                                /** @description the same id as the webhook-id of its deliveries */
                                id: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                created_at: string;
                                /** @description the payload of the event kind, as delivered by webhook */
                                data: {
                                    [key: string]: unknown;
                                };
                            }[];
                            /** @description more events follow: call again with after = next_after */
                            has_more: boolean;
                            /** @description the id to pass as after next: the last event returned, or the last examined when type skipped events; null while the feed is empty */
                            next_after: string | null;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    getStatements: {
        parameters: {
            query: {
                /** @description the Africa/Lagos day, YYYY-MM-DD (required) */
                date: string;
                /** @description json (default, the envelope), csv (one table) or pdf; each signed */
                format?: "json" | "csv" | "pdf";
                /** @description the key's environment (the default); the other one is 400 validation.failed */
                environment?: "live" | "test";
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description ed25519= and the base64 Ed25519 signature of the exact body bytes, by the key of GET /v1/statements/public-key */
                    "Billvend-Signature"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            account_id: number;
                            account_name: string;
                            /**
                             * @description live (real money) or test (sandbox)
                             * @enum {unknown}
                             */
                            environment: "live" | "test";
                            /**
                             * Format: date
                             * @description the Africa/Lagos day
                             */
                            date: string;
                            /** @constant */
                            time_zone: "Africa/Lagos";
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            from: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            to: string;
                            /** @description false for today's statement: the day is not over */
                            final: boolean;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            generated_at: string;
                            /** @constant */
                            currency: "NGN";
                            /** @description NGN, at most 2 decimals */
                            opening_balance: number;
                            /** @description NGN, at most 2 decimals */
                            closing_balance: number;
                            entries: {
                                /** @description the wallet entry's sequence number (GET /v1/wallet/transactions) */
                                id: number;
                                /**
                                 * @description reversal: the refund of a failed order; transfer_in/transfer_out: money moved between a parent and its agent; commission/commission_reversal: earned on an agent's order, and given back on its refund
                                 * @enum {unknown}
                                 */
                                type: "credit" | "debit" | "reversal" | "transfer_in" | "transfer_out" | "commission" | "commission_reversal";
                                /** @description NGN, at most 2 decimals */
                                amount: number;
                                /** @description the order reference, or the funding reference for a credit */
                                reference: string;
                                /** @description NGN, at most 2 decimals */
                                balance_before: number;
                                /** @description NGN, at most 2 decimals */
                                balance_after: number;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                created_at: string;
                                description: string;
                                /** @description the order's service; null for a credit */
                                service_type: ("airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international") | null;
                                /** @description the order's amount (what the recipient got); null for a credit */
                                face_value: number | null;
                                /** @description the commission the order netted (the debit is face_value − commission); null for a credit */
                                commission: number | null;
                            }[];
                            totals: {
                                by_type: {
                                    credit: {
                                        count: number;
                                        /** @description NGN; below zero only for a day's commission net of refunds */
                                        amount: number;
                                    };
                                    debit: {
                                        count: number;
                                        /** @description NGN; below zero only for a day's commission net of refunds */
                                        amount: number;
                                    };
                                    reversal: {
                                        count: number;
                                        /** @description NGN; below zero only for a day's commission net of refunds */
                                        amount: number;
                                    };
                                    /** @description commission of the day's debits less that of its reversals */
                                    commission: {
                                        /** @description debits that netted a commission */
                                        count: number;
                                        /** @description NGN; below zero only for a day's commission net of refunds */
                                        amount: number;
                                    };
                                    transfer_in?: {
                                        count: number;
                                        /** @description NGN; below zero only for a day's commission net of refunds */
                                        amount: number;
                                    };
                                    transfer_out?: {
                                        count: number;
                                        /** @description NGN; below zero only for a day's commission net of refunds */
                                        amount: number;
                                    };
                                    agent_commission?: {
                                        count: number;
                                        /** @description NGN; below zero only for a day's commission net of refunds */
                                        amount: number;
                                    };
                                    commission_reversal?: {
                                        count: number;
                                        /** @description NGN; below zero only for a day's commission net of refunds */
                                        amount: number;
                                    };
                                };
                                by_service: {
                                    /** @enum {unknown} */
                                    service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                                    debits: {
                                        count: number;
                                        /** @description NGN; below zero only for a day's commission net of refunds */
                                        amount: number;
                                    };
                                    reversals: {
                                        count: number;
                                        /** @description NGN; below zero only for a day's commission net of refunds */
                                        amount: number;
                                    };
                                    /** @description NGN, at most 2 decimals */
                                    face_value: number;
                                    /** @description NGN; below zero only for a day's commission net of refunds */
                                    commission: number;
                                }[];
                            };
                        };
                        request_id: string;
                    };
                    "text/csv": string;
                    "application/pdf": string;
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Unprocessable: statement.too_large */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "statement.too_large";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    getStatementsPublicKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @constant */
                            algorithm: "ed25519";
                            /** @description SubjectPublicKeyInfo (SPKI) PEM */
                            public_key_pem: string;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    getTransactionsByReferenceReceipt: {
        parameters: {
            query?: {
                /** @description html (default) or pdf; wins over Accept */
                format?: "html" | "pdf";
            };
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                reference: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": Record<string, never>;
                    "application/pdf": string;
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: transaction.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    postTransactionsByReferenceResend: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path: {
                reference: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            reference: string;
                            /** @enum {unknown} */
                            event: "transaction.completed" | "transaction.failed";
                            /** @description the new event's id (the webhook-id header and the feed's) */
                            event_id: string;
                            /** @constant */
                            resent: true;
                            /** @description endpoints it is being sent to */
                            endpoints: number;
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.ip_not_allowed, auth.insufficient_scope, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.ip_not_allowed" | "auth.insufficient_scope" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: transaction.not_found, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.not_found" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: transaction.not_final, webhooks.no_endpoint, agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "transaction.not_final" | "webhooks.no_endpoint" | "agents.closed";
                        };
                    };
                };
            };
            /** @description Unprocessable: idempotency.key_reused */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "idempotency.key_reused";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postSandboxWalletFund: {
        parameters: {
            query?: never;
            header?: {
                /** @description Unique string per operation; a retry with the same key returns the original response with `Idempotent-Replayed: true`. Kept 24 hours. */
                "X-Idempotency-Key"?: string;
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 50000,
                 *       "reference": "topup-0001"
                 *     }
                 */
                "application/json": {
                    /** @description NGN, at most 2 decimals */
                    amount: number;
                    reference?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    /** @description `true` when this is the remembered answer of an earlier request with the same X-Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            id: number;
                            type: string;
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN amount with at most 2 decimal places */
                            balance_before: number;
                            /** @description NGN amount with at most 2 decimal places */
                            balance_after: number;
                            reference: string;
                            description: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            funding?: {
                                /** @description the configured funding provider's name, or sandbox */
                                provider: string;
                                /** @description the provider's unique id of the transfer (Monnify transactionReference) */
                                provider_reference: string;
                                /** @description NGN amount with at most 2 decimal places */
                                amount_paid: number;
                                /** @description NGN amount with at most 2 decimal places */
                                fee: number;
                                /** @description NGN amount with at most 2 decimal places */
                                settlement_amount: number;
                            };
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.insufficient_scope, auth.ip_not_allowed, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.insufficient_scope" | "auth.ip_not_allowed" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Unprocessable: idempotency.key_reused */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "idempotency.key_reused";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postFundingBankTransfer: {
        parameters: {
            query?: never;
            header: {
                /** @description sha256= + hex HMAC-SHA256 of the raw body keyed with FUNDING_WEBHOOK_SECRET */
                "X-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reference": "NIP-000123",
                 *       "account_id": 1,
                 *       "amount": 25000,
                 *       "sender_name": "Ada Stores"
                 *     }
                 */
                "application/json": {
                    reference: string;
                    account_id: number;
                    amount: number;
                    /** @constant */
                    currency?: "NGN";
                    sender_name?: string;
                    narration?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            /** @constant */
                            received: true;
                            wallet_transaction: {
                                id: number;
                                type: string;
                                /** @description NGN amount with at most 2 decimal places */
                                amount: number;
                                /** @description NGN amount with at most 2 decimal places */
                                balance_before: number;
                                /** @description NGN amount with at most 2 decimal places */
                                balance_after: number;
                                reference: string;
                                description: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                created_at: string;
                                funding?: {
                                    /** @description the configured funding provider's name, or sandbox */
                                    provider: string;
                                    /** @description the provider's unique id of the transfer (Monnify transactionReference) */
                                    provider_reference: string;
                                    /** @description NGN amount with at most 2 decimal places */
                                    amount_paid: number;
                                    /** @description NGN amount with at most 2 decimal places */
                                    fee: number;
                                    /** @description NGN amount with at most 2 decimal places */
                                    settlement_amount: number;
                                };
                            };
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            /** @constant */
                            received: true;
                            wallet_transaction: {
                                id: number;
                                type: string;
                                /** @description NGN amount with at most 2 decimal places */
                                amount: number;
                                /** @description NGN amount with at most 2 decimal places */
                                balance_before: number;
                                /** @description NGN amount with at most 2 decimal places */
                                balance_after: number;
                                reference: string;
                                description: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with microseconds
                                 */
                                created_at: string;
                                funding?: {
                                    /** @description the configured funding provider's name, or sandbox */
                                    provider: string;
                                    /** @description the provider's unique id of the transfer (Monnify transactionReference) */
                                    provider_reference: string;
                                    /** @description NGN amount with at most 2 decimal places */
                                    amount_paid: number;
                                    /** @description NGN amount with at most 2 decimal places */
                                    fee: number;
                                    /** @description NGN amount with at most 2 decimal places */
                                    settlement_amount: number;
                                };
                            };
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: funding.invalid_signature */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "funding.invalid_signature";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found, funding.not_configured */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found" | "funding.not_configured";
                        };
                    };
                };
            };
            /** @description Unprocessable: idempotency.key_reused */
            422: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "idempotency.key_reused";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    getFundingAccounts: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            accounts: {
                                /** @description the configured funding provider's name */
                                provider: string;
                                /** @description monnify, paystack or flutterwave */
                                kind: string;
                                bank_name: string | null;
                                account_number: string | null;
                                account_name: string | null;
                                status: "active" | "pending" | "failed";
                                /** @description why the provider could not make the account (status failed); retried in the background and by repeating the POST */
                                error?: string;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.insufficient_scope, auth.ip_not_allowed, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.insufficient_scope" | "auth.ip_not_allowed" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: funding.not_configured, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "funding.not_configured" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    postFundingAccounts: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "bvn": "22212345678"
                 *     }
                 */
                "application/json": {
                    /** @description the reseller's BVN, where a provider requires one; sealed at rest, never shown again */
                    bvn?: string;
                    /** @description the reseller's NIN, where a provider requires one; sealed at rest, never shown again */
                    nin?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            accounts: {
                                /** @description the configured funding provider's name */
                                provider: string;
                                /** @description monnify, paystack or flutterwave */
                                kind: string;
                                bank_name: string | null;
                                account_number: string | null;
                                account_name: string | null;
                                status: "active" | "pending" | "failed";
                                /** @description why the provider could not make the account (status failed); retried in the background and by repeating the POST */
                                error?: string;
                            }[];
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.insufficient_scope, auth.ip_not_allowed, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.insufficient_scope" | "auth.ip_not_allowed" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: funding.not_configured, account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "funding.not_configured" | "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    postSandboxFundingTransfer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act for an agent: the id of an account below the key's account (a key with agents:manage). The request runs as that agent: its wallet, PIN, keys, webhooks and idempotency keys. Any other id is 404 account.not_found. */
                "Billvend-Account"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 25000
                 *     }
                 */
                "application/json": {
                    /** @description NGN, at most 2 decimals */
                    amount: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute for this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current one-minute window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix seconds when the window ends. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                        data: {
                            id: number;
                            type: string;
                            /** @description NGN amount with at most 2 decimal places */
                            amount: number;
                            /** @description NGN amount with at most 2 decimal places */
                            balance_before: number;
                            /** @description NGN amount with at most 2 decimal places */
                            balance_after: number;
                            reference: string;
                            description: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with microseconds
                             */
                            created_at: string;
                            funding?: {
                                /** @description the configured funding provider's name, or sandbox */
                                provider: string;
                                /** @description the provider's unique id of the transfer (Monnify transactionReference) */
                                provider_reference: string;
                                /** @description NGN amount with at most 2 decimal places */
                                amount_paid: number;
                                /** @description NGN amount with at most 2 decimal places */
                                fee: number;
                                /** @description NGN amount with at most 2 decimal places */
                                settlement_amount: number;
                            };
                        };
                        request_id: string;
                    };
                };
            };
            /** @description Bad request: validation.failed, request.malformed_json */
            400: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "validation.failed" | "request.malformed_json";
                        };
                    };
                };
            };
            /** @description Unauthorized: auth.invalid_key, auth.key_not_found, auth.key_expired */
            401: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.invalid_key" | "auth.key_not_found" | "auth.key_expired";
                        };
                    };
                };
            };
            /** @description Forbidden: auth.insufficient_scope, auth.ip_not_allowed, account.suspended */
            403: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "auth.insufficient_scope" | "auth.ip_not_allowed" | "account.suspended";
                        };
                    };
                };
            };
            /** @description Not found: account.not_found */
            404: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "account.not_found";
                        };
                    };
                };
            };
            /** @description Conflict: agents.closed */
            409: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "agents.closed";
                        };
                    };
                };
            };
            /** @description Payload too large: request.too_large */
            413: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.too_large";
                        };
                    };
                };
            };
            /** @description Unsupported media type: request.unsupported_media_type */
            415: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "request.unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Too many requests: rate_limit.exceeded */
            429: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "rate_limit.exceeded";
                        };
                    };
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
            /** @description Unavailable: service.unavailable */
            503: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    /** @description Seconds to wait before retrying with the same X-Idempotency-Key. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "service.unavailable";
                        };
                    };
                };
            };
        };
    };
    getOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description The request line and headers exceed 16 KiB; answered by the HTTP layer with a small HTML page, not the JSON envelope. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server error: internal.error */
            500: {
                headers: {
                    /** @description The request's id, also `request_id` in the body. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {string} */
                            code?: "internal.error";
                        };
                    };
                };
            };
        };
    };
    eventTransactionCompleted: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Signature": string;
                "X-Service-Event": "transaction.completed";
                "webhook-id": string;
                "webhook-timestamp": number;
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    event: "transaction.completed";
                    id: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC with microseconds
                     */
                    created_at: string;
                    data: {
                        reference: string;
                        /** @enum {unknown} */
                        service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                        network: string | null;
                        disco?: string;
                        provider?: string;
                        recipient: string;
                        /** @description NGN amount with at most 2 decimal places */
                        amount: number;
                        /** @description NGN debited from the wallet: amount − commission (docs/api.md "Pricing") */
                        amount_charged: number;
                        /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                        commission: number;
                        status: string;
                        international?: {
                            /** @description the quote the purchase named */
                            quote_id: string;
                            /** @description ISO 3166 alpha-2 country code, as GET /v1/services/international/countries lists it */
                            country: string;
                            /** @description the operator's currency (ISO 4217) */
                            currency: string;
                            operator_id: string;
                            operator: string | null;
                            product_type_id: string;
                            fixed_price: boolean;
                            foreign_amount: string | null;
                            rate: string | null;
                        };
                        token?: string | null;
                        units?: string | null;
                        meter_type?: string | null;
                        plan?: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with microseconds
                         */
                        delivered_at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx delivers the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventTransactionFailed: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Signature": string;
                "X-Service-Event": "transaction.failed";
                "webhook-id": string;
                "webhook-timestamp": number;
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    event: "transaction.failed";
                    id: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC with microseconds
                     */
                    created_at: string;
                    data: {
                        reference: string;
                        /** @enum {unknown} */
                        service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                        network: string | null;
                        disco?: string;
                        provider?: string;
                        recipient: string;
                        /** @description NGN amount with at most 2 decimal places */
                        amount: number;
                        /** @description NGN debited from the wallet: amount − commission (docs/api.md "Pricing") */
                        amount_charged: number;
                        /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                        commission: number;
                        status: string;
                        international?: {
                            /** @description the quote the purchase named */
                            quote_id: string;
                            /** @description ISO 3166 alpha-2 country code, as GET /v1/services/international/countries lists it */
                            country: string;
                            /** @description the operator's currency (ISO 4217) */
                            currency: string;
                            operator_id: string;
                            operator: string | null;
                            product_type_id: string;
                            fixed_price: boolean;
                            foreign_amount: string | null;
                            rate: string | null;
                        };
                        failure_reason: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with microseconds
                         */
                        at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx delivers the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventTransactionProcessing: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Signature": string;
                "X-Service-Event": "transaction.processing";
                "webhook-id": string;
                "webhook-timestamp": number;
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    event: "transaction.processing";
                    id: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC with microseconds
                     */
                    created_at: string;
                    data: {
                        reference: string;
                        /** @enum {unknown} */
                        service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                        network: string | null;
                        disco?: string;
                        provider?: string;
                        recipient: string;
                        /** @description NGN amount with at most 2 decimal places */
                        amount: number;
                        /** @description NGN debited from the wallet: amount − commission (docs/api.md "Pricing") */
                        amount_charged: number;
                        /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                        commission: number;
                        status: string;
                        international?: {
                            /** @description the quote the purchase named */
                            quote_id: string;
                            /** @description ISO 3166 alpha-2 country code, as GET /v1/services/international/countries lists it */
                            country: string;
                            /** @description the operator's currency (ISO 4217) */
                            currency: string;
                            operator_id: string;
                            operator: string | null;
                            product_type_id: string;
                            fixed_price: boolean;
                            foreign_amount: string | null;
                            rate: string | null;
                        };
                        expected_final_at: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with microseconds
                         */
                        at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx delivers the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventTransactionDelayed: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Signature": string;
                "X-Service-Event": "transaction.delayed";
                "webhook-id": string;
                "webhook-timestamp": number;
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    event: "transaction.delayed";
                    id: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC with microseconds
                     */
                    created_at: string;
                    data: {
                        reference: string;
                        /** @enum {unknown} */
                        service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                        network: string | null;
                        disco?: string;
                        provider?: string;
                        recipient: string;
                        /** @description NGN amount with at most 2 decimal places */
                        amount: number;
                        /** @description NGN debited from the wallet: amount − commission (docs/api.md "Pricing") */
                        amount_charged: number;
                        /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                        commission: number;
                        status: string;
                        international?: {
                            /** @description the quote the purchase named */
                            quote_id: string;
                            /** @description ISO 3166 alpha-2 country code, as GET /v1/services/international/countries lists it */
                            country: string;
                            /** @description the operator's currency (ISO 4217) */
                            currency: string;
                            operator_id: string;
                            operator: string | null;
                            product_type_id: string;
                            fixed_price: boolean;
                            foreign_amount: string | null;
                            rate: string | null;
                        };
                        /** @description the operator's decision is due by then: 24 hours after the order */
                        expected_final_at: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with microseconds
                         */
                        at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx delivers the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventTransactionReversed: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Signature": string;
                "X-Service-Event": "transaction.reversed";
                "webhook-id": string;
                "webhook-timestamp": number;
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    event: "transaction.reversed";
                    id: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC with microseconds
                     */
                    created_at: string;
                    data: {
                        reference: string;
                        /** @enum {unknown} */
                        service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                        network: string | null;
                        disco?: string;
                        provider?: string;
                        recipient: string;
                        /** @description NGN amount with at most 2 decimal places */
                        amount: number;
                        /** @description NGN debited from the wallet: amount − commission (docs/api.md "Pricing") */
                        amount_charged: number;
                        /** @description NGN: the tier's rate applied to amount, rounded down to the kobo */
                        commission: number;
                        status: string;
                        international?: {
                            /** @description the quote the purchase named */
                            quote_id: string;
                            /** @description ISO 3166 alpha-2 country code, as GET /v1/services/international/countries lists it */
                            country: string;
                            /** @description the operator's currency (ISO 4217) */
                            currency: string;
                            operator_id: string;
                            operator: string | null;
                            product_type_id: string;
                            fixed_price: boolean;
                            foreign_amount: string | null;
                            rate: string | null;
                        };
                        failure_reason: string | null;
                        delivered_at: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with microseconds
                         */
                        at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx delivers the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventWalletCredited: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Signature": string;
                "X-Service-Event": "wallet.credited";
                "webhook-id": string;
                "webhook-timestamp": number;
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    event: "wallet.credited";
                    id: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC with microseconds
                     */
                    created_at: string;
                    data: {
                        wallet_transaction_id: number;
                        /** @enum {unknown} */
                        type: "credit" | "debit" | "reversal" | "transfer_in" | "transfer_out" | "commission" | "commission_reversal";
                        /** @description NGN amount with at most 2 decimal places */
                        amount: number;
                        /** @description NGN amount with at most 2 decimal places */
                        balance_after: number;
                        reference: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with microseconds
                         */
                        created_at: string;
                        /** @description a transfer between a parent and its agent: the other account; a commission or its reversal: the agent whose order it was */
                        counterparty_id?: number;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx delivers the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventWalletDebited: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Signature": string;
                "X-Service-Event": "wallet.debited";
                "webhook-id": string;
                "webhook-timestamp": number;
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    event: "wallet.debited";
                    id: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC with microseconds
                     */
                    created_at: string;
                    data: {
                        wallet_transaction_id: number;
                        /** @enum {unknown} */
                        type: "credit" | "debit" | "reversal" | "transfer_in" | "transfer_out" | "commission" | "commission_reversal";
                        /** @description NGN amount with at most 2 decimal places */
                        amount: number;
                        /** @description NGN amount with at most 2 decimal places */
                        balance_after: number;
                        reference: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with microseconds
                         */
                        created_at: string;
                        /** @description a transfer between a parent and its agent: the other account; a commission or its reversal: the agent whose order it was */
                        counterparty_id?: number;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx delivers the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventWalletReversed: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Signature": string;
                "X-Service-Event": "wallet.reversed";
                "webhook-id": string;
                "webhook-timestamp": number;
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    event: "wallet.reversed";
                    id: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC with microseconds
                     */
                    created_at: string;
                    data: {
                        wallet_transaction_id: number;
                        /** @enum {unknown} */
                        type: "credit" | "debit" | "reversal" | "transfer_in" | "transfer_out" | "commission" | "commission_reversal";
                        /** @description NGN amount with at most 2 decimal places */
                        amount: number;
                        /** @description NGN amount with at most 2 decimal places */
                        balance_after: number;
                        reference: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with microseconds
                         */
                        created_at: string;
                        /** @description a transfer between a parent and its agent: the other account; a commission or its reversal: the agent whose order it was */
                        counterparty_id?: number;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx delivers the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventWalletLow_balance: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Signature": string;
                "X-Service-Event": "wallet.low_balance";
                "webhook-id": string;
                "webhook-timestamp": number;
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    event: "wallet.low_balance";
                    id: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC with microseconds
                     */
                    created_at: string;
                    data: {
                        /** @description NGN amount with at most 2 decimal places */
                        balance: number;
                        /** @description NGN amount with at most 2 decimal places */
                        threshold: number;
                        /** @description the debit that took the balance below the threshold */
                        wallet_transaction_id: number;
                        reference: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with microseconds
                         */
                        created_at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx delivers the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventServiceStatus_changed: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Signature": string;
                "X-Service-Event": "service.status_changed";
                "webhook-id": string;
                "webhook-timestamp": number;
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    event: "service.status_changed";
                    id: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC with microseconds
                     */
                    created_at: string;
                    data: {
                        product: string;
                        /** @enum {unknown} */
                        service_type: "airtime" | "data" | "electricity" | "tv" | "education" | "internet" | "showmax" | "international";
                        /** @enum {unknown} */
                        status: "available" | "degraded" | "unavailable";
                        retry_after_s: number | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with microseconds
                         */
                        at: string;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx delivers the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    eventBatchCompleted: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Signature": string;
                "X-Service-Event": "batch.completed";
                "webhook-id": string;
                "webhook-timestamp": number;
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    event: "batch.completed";
                    id: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 UTC with microseconds
                     */
                    created_at: string;
                    data: {
                        /** @description the batch id */
                        id: string;
                        /**
                         * @description completed once every item is final (delivered, failed or refused); the batch.completed event follows
                         * @enum {unknown}
                         */
                        status: "processing" | "completed";
                        items_count: number;
                        counts: {
                            processing: number;
                            delivered: number;
                            failed: number;
                            refused: number;
                        };
                        items: {
                            /** @description the item's position in items, from 0 */
                            index: number;
                            service_type: string;
                            /** @description the order this item placed (GET /v1/transactions/{reference}); null when it was refused */
                            reference: string | null;
                            /**
                             * @description the order's status now (failed: refunded); refused: nothing was placed nor debited, see error
                             * @enum {unknown}
                             */
                            status: "processing" | "delivered" | "failed" | "refused";
                            client_reference: string | null;
                            /** @description why the item was refused, in the shape of an error answer */
                            error: {
                                /** @description stable code (docs/api.md "Errors"): validation.failed, wallet.insufficient_funds, wallet.limit_exceeded, transaction.duplicate_reference, … */
                                code: string;
                                message: string;
                                details?: {
                                    /** @description items.<index>.<field> */
                                    field: string;
                                    message: string;
                                }[];
                                /** @description transaction.duplicate_reference: the order that holds the client_reference */
                                reference?: string;
                            } | null;
                        }[];
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with microseconds
                         */
                        created_at: string;
                        completed_at: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx delivers the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
